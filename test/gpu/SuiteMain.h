// The shared main() of the GPU suite programs: an exception from the run
// (a failed launch, say) becomes one FAIL line and exit status 1.
#ifndef MSTAGE_TEST_GPU_SUITEMAIN_H
#define MSTAGE_TEST_GPU_SUITEMAIN_H

#include <cstdio>
#include <exception>

inline int runSuiteProgram(const char *Name, int (*Run)()) {
  try {
    return Run();
  } catch (const std::exception &E) {
    std::printf("FAIL %s: %s\n", Name, E.what());
    return 1;
  }
}

#endif
