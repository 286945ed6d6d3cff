// The mstage side of issue 16's ports (bench/mstage_hotspot.cpp and the
// others): where they may run, timing by the runtime's per-launch events
// (mstage_rt_time_launches), as bench/cuda/BenchTiming.cuh times the nvcc
// side, and the two sides each program runs: its kernels call stage through
// a policy (examples/StagePolicy.h), Staged folding what the host knows at
// launch, Unstaged leaving it a runtime value as nvcc's kernels have it.
#ifndef MSTAGE_BENCH_PORTSMSTAGE_H
#define MSTAGE_BENCH_PORTSMSTAGE_H

#include "PortsReference.h"
#include "StagePolicy.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ports {

// On a GPU the figures are the benchmark's; on the CPU back end (small --n)
// the programs show that their results are right, and their times mean
// nothing. In PTX-only mode (MSTAGE_BACKEND=ptx) each kernel is launched
// once, which compiles it (for MSTAGE_DUMP=ptx), and nothing is checked or
// timed: requireExecution returns false there.
inline bool requireExecution(const char *Program) {
  int Executes = mstage_rt_executes();
  if (Executes == 0 && !std::strcmp(mstage_rt_backend(), "ptx")) {
    std::fprintf(stderr,
                 "# %s: PTX-only mode: each kernel is compiled once, nothing "
                 "is checked or timed\n",
                 Program);
    return false;
  }
  if (Executes != 1) {
    std::fprintf(stderr, "%s: no back end runs kernels here (%s)\n", Program,
                 Executes < 0 ? mstage_rt_last_error() : mstage_rt_backend());
    std::exit(1);
  }
  std::fprintf(stderr, "# %s: back end %s\n", Program, mstage_rt_backend());
  mstage_rt_time_launches(1);
  return true;
}

// The side a policy's rows and checksums are named by: the staged kernels
// are "mstage" (the side the targets are measured on), the unstaged ones
// "unstaged"; a variant is SIDE or SIDE-KERNEL.
template <class Stage> const char *sideName() {
  return std::is_same_v<Stage, Staged> ? "mstage" : "unstaged";
}
template <class Stage> std::string variantName(const char *Kernel) {
  return std::string(sideName<Stage>()) + "-" + Kernel;
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
