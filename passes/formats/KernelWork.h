//===- KernelWork.h - A kernel's size and one thread's work ---------------===//
//
// The JIT policy (runtime/launch/JitPolicy.h) weighs a specialization's
// compile against the launch it would serve before anything is compiled,
// from the kernel's weight: its IR instruction count, which a compile's time
// grows with, and the instructions one thread runs, those inside loops
// counted LoopTrips times per loop level (a trip count is rarely a constant
// before staging). The plugin measures it on the bitcode it embeds
// (transforms/WorkMeasure.h) and the kernel blob carries it, so that a
// process parses no bitcode to weigh its kernels.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_KERNELWORK_H
#define MSTAGE_PASSES_FORMATS_KERNELWORK_H

#include <cstdint>

namespace mstage {

struct KernelWork {
  uint64_t Instructions = 0;     // the kernel's and its callees', once each
  double ThreadInstructions = 0; // one thread's, loops weighted
  uint32_t LoopDepth = 0;        // the deepest loop nest
};

// The trips a loop is assumed to make, per level of nesting (at most
// MaxLoopLevels levels are counted).
inline constexpr double LoopTrips = 32;
inline constexpr unsigned MaxLoopLevels = 3;

} // namespace mstage

#endif
