// The shared main() and checks of the GPU suite programs: an exception from
// the run (a failed launch, say) becomes one FAIL line and exit status 1.
#ifndef MSTAGE_TEST_GPU_SUITEMAIN_H
#define MSTAGE_TEST_GPU_SUITEMAIN_H

#include "ChildProcess.h"

#include "mstage/abi.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

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

// The checks of a program that makes several: report() prints each one's
// PASS or FAIL line under the program's name, failed() whether any failed
// (the program's exit status). Checks may report from several threads.
class SuiteChecks {
public:
  explicit SuiteChecks(const char *Name) : Name(Name) {}
  void report(bool OK, const std::string &What) {
    std::printf("%s %s: %s\n", OK ? "PASS" : "FAIL", Name, What.c_str());
    if (!OK)
      Failed = true;
  }
  bool failed() const { return Failed; }

private:
  const char *Name;
  std::atomic<bool> Failed{false};
};

// Prints the PASS or FAIL line of a check on a child process (ChildProcess.h)
// and, when it failed, what the child printed; returns OK.
inline bool reportChild(const char *Name, bool OK, const std::string &What,
                        const std::string &Child) {
  std::printf("%s %s: %s%s%s\n", OK ? "PASS" : "FAIL", Name, What.c_str(),
              OK ? "" : "; the child printed:\n", OK ? "" : Child.c_str());
  return OK;
}

// True when the child failed (a non-zero exit) and printed each of Want;
// else prints the FAIL line with the child's status and output.
inline bool childFailedSaying(const char *Name, const ChildResult &C,
                              const std::vector<std::string> &Want) {
  bool OK = C.Status != 0;
  for (const std::string &W : Want)
    OK = OK && C.Output.find(W) != std::string::npos;
  if (!OK)
    std::printf("FAIL %s: the child exited with %d and printed:\n%s\n", Name,
                C.Status, C.Output.c_str());
  return OK;
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

// For a program that checks the JIT's disk cache: synchronous JIT
// (MSTAGE_JIT=sync, which child processes inherit) and the disk cache (the
// default: MSTAGE_CACHE unset) in a new, empty folder /tmp/Prefix-XXXXXX,
// named by MSTAGE_CACHE_DIR. Returns the folder, or "" after a FAIL line.
// Call it before the first launch: the runtime reads the settings once.
inline std::string useFreshDiskCache(const char *Name, const char *Prefix) {
  setenv("MSTAGE_JIT", "sync", 1);
  std::string Dir = std::string("/tmp/") + Prefix + "-XXXXXX";
  if (!mkdtemp(Dir.data())) {
    std::printf("FAIL %s: mkdtemp %s\n", Name, Dir.c_str());
    return "";
  }
  setenv("MSTAGE_CACHE_DIR", Dir.c_str(), 1);
  unsetenv("MSTAGE_CACHE");
  return Dir;
}

#endif
