// The shared main() of the GPU suite programs: an exception from the run
// (a failed launch, say) becomes one FAIL line and exit status 1.
#ifndef MSTAGE_TEST_GPU_SUITEMAIN_H
#define MSTAGE_TEST_GPU_SUITEMAIN_H

#include "mstage/abi.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

inline int runSuiteProgram(const char *Name, int (*Run)()) {
  try {
    return Run();
  } catch (const std::exception &E) {
    std::printf("FAIL %s: %s\n", Name, E.what());
    return 1;
  }
}

// The same for a program that reads its command line (one that runs itself
// as a child process).
inline int runSuiteProgram(const char *Name, int (*Run)(int, char **),
                           int Argc, char **Argv) {
  try {
    return Run(Argc, Argv);
  } catch (const std::exception &E) {
    std::printf("FAIL %s: %s\n", Name, E.what());
    return 1;
  }
}

// This program's path, to run it again as a child; empty if unknown.
inline std::string selfPath() {
  char Path[4096];
  ssize_t Len = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  return Len > 0 ? std::string(Path, size_t(Len)) : std::string();
}

// Runs this program again with Args (and the environment settings Env, as
// "NAME=value ..."); returns what it printed on stdout (and stderr, with
// WithStderr), and its exit status in Status.
inline std::string runSelf(const std::string &Args, bool WithStderr,
                           int &Status, const std::string &Env = "") {
  std::string Out = "/tmp/mstage-suite-" + std::to_string(getpid());
  Status = std::system((Env + " '" + selfPath() + "' " + Args + " > " + Out +
                        (WithStderr ? " 2>&1" : ""))
                           .c_str());
  std::ifstream In(Out);
  std::stringstream Text;
  Text << In.rdbuf();
  std::remove(Out.c_str());
  return Text.str();
}

// True when launches run on the CPU back end (MSTAGE_BACKEND=cpu, or auto
// without a GPU): programs then check what is meaningful there.
inline bool onCpu() { return std::string(mstage_rt_backend()) == "cpu"; }

// Prints the SKIP line and returns true when launches do not execute (PTX-only
// mode, or no back end at all).
inline bool skipWithoutGpu(const char *Name) {
  if (mstage_rt_executes() == 1)
    return false;
  std::printf("SKIP %s: no GPU\n", Name);
  return true;
}

#endif
