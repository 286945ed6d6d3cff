// The mstage side of issue 16's ports (bench/mstage_hotspot.cpp and the
// others): where they may run, and timing by the runtime's per-launch
// events (mstage_rt_time_launches), as bench/cuda/BenchTiming.cuh times the
// nvcc side.
#ifndef MSTAGE_BENCH_PORTSMSTAGE_H
#define MSTAGE_BENCH_PORTSMSTAGE_H

#include "PortsReference.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace ports {

// On a GPU the figures are the benchmark's; on the CPU back end (small --n)
// the programs show that their results are right, and their times mean
// nothing. Anywhere else (PTX-only mode) nothing runs.
inline void requireExecution(const char *Program) {
  if (mstage_rt_executes() != 1) {
    std::fprintf(stderr, "%s: no back end runs kernels here (%s)\n", Program,
                 mstage_rt_executes() < 0 ? mstage_rt_last_error()
                                          : "PTX-only mode");
    std::exit(1);
  }
  std::fprintf(stderr, "# %s: back end %s\n", Program, mstage_rt_backend());
  mstage_rt_time_launches(1);
}

// Launches Launch() kPortWarmups times, then Reps times, each one timed;
// Launch returns its kernel time in ms (a sum where it launches several).
// After the first warm-up the background JIT is waited for, so that every
// timed launch runs the specialized code, not the generic code that a cold
// launch starts with (MSTAGE_JIT=async).
template <class F> std::vector<double> timeLaunches(int Reps, F Launch) {
  for (int R = 0; R < kPortWarmups; ++R) {
    Launch();
    if (R == 0)
      mstage::jit_wait();
  }
  std::vector<double> Ms;
  for (int R = 0; R < Reps; ++R)
    Ms.push_back(Launch());
  return Ms;
}

// Launches one kernel with the given arguments and gives its time.
template <class K, class... A> double timedLaunch(K &Kernel, A &&...Args) {
  Kernel(std::forward<A>(Args)...);
  return mstage_rt_last_kernel_ms();
}

} // namespace ports

#endif
