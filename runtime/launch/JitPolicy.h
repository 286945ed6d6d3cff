//===- JitPolicy.h - Whether a launch waits for its specialization --------===//
//
// MSTAGE_JIT=auto, the default: a launch whose specialization is not ready,
// and that could run the kernel's ahead-of-time generic code instead, waits
// for the compile when the compile is expected to cost less than running
// the generic code would lose. Waiting costs the compile; the generic code
// costs its run time less the specialization's, assumed half of it
// (SpecializedSpeedup). So a launch waits when
//
//   estimated compile < estimated generic run x (1 - 1 / SpecializedSpeedup)
//
// Both sides come from the kernel's IR before anything is compiled
// (formats/KernelWork.h, in its blob): the compile from its instruction count,
// the run from the grid's threads times one thread's instructions over the
// GPU's rate. Each is then corrected by what the process measures: the compiles
// done so far scale the compile estimates, and on the GPU the first generic
// launch of each kernel is timed with events, which replaces the run estimate
// for the kernel's later decisions. A time loop of short kernels thus never
// waits; a single long launch waits for its specialization. MSTAGE_TRACE
// prints each decision with its numbers.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_JITPOLICY_H
#define MSTAGE_RUNTIME_LAUNCH_JITPOLICY_H

#include "core/KernelRegistry.h"
#include "launch/LaunchRequest.h"

#include <cstdint>

namespace mstage::rt {

// The factor the specialization is assumed to run faster than the generic
// code: the staged ports measured 1.0-11x (docs/performance.md).
inline constexpr double SpecializedSpeedup = 2;

// MSTAGE_JIT=auto's choice for L, whose specialization is not ready and
// whose generic code could run instead: true to wait for the compile.
bool waitsForSpecialization(const LaunchRequest &L);

// K's specialization took Ms to compile and load (not a disk hit): later
// estimates are scaled by what the compiles measured.
void noteCompileMs(const RegisteredKernel &K, double Ms);

// Times L's generic launch on the GPU with events, when it is its kernel's
// first under MSTAGE_JIT=auto: begun before the launch, ended once it is
// enqueued. The result is read without waiting, by a later decision.
// Inline up to the test of Generic: a launch of compiled code makes no call.
class GenericRunTimer {
public:
  GenericRunTimer(const LaunchRequest &L, bool Generic, bool Capturing) {
    if (Generic && !Capturing)
      begin(L);
  }
  ~GenericRunTimer() {
    if (Timing)
      cancel();
  }
  GenericRunTimer(const GenericRunTimer &) = delete;
  GenericRunTimer &operator=(const GenericRunTimer &) = delete;
  void enqueued() {
    if (Timing)
      end();
  }

private:
  void begin(const LaunchRequest &L);
  void end();
  void cancel();
  void *Timing = nullptr; // the kernel's timing, while this launch begins it
};

} // namespace mstage::rt

#endif
