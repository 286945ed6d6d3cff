// The shared main() of the GPU suite programs: an exception from the run
// (a failed launch, say) becomes one FAIL line and exit status 1.
#ifndef MSTAGE_TEST_GPU_SUITEMAIN_H
#define MSTAGE_TEST_GPU_SUITEMAIN_H

#include <cstdio>
#include <exception>
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

#endif
