//===- KernelWork.h - A kernel's size and one thread's work, from its IR --===//
//
// The JIT policy (launch/JitPolicy.h) weighs a specialization's compile
// against the launch it would serve before anything is compiled, from the
// kernel's embedded IR: its instruction count, which a compile's time grows
// with, and the instructions one thread runs, those inside loops counted
// LoopTrips times per loop level (a trip count is rarely a constant before
// staging).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_JIT_KERNELWORK_H
#define MSTAGE_RUNTIME_JIT_KERNELWORK_H

#include "formats/KernelBlob.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mstage::rt {

struct KernelWork {
  uint64_t Instructions = 0;     // the kernel's and its callees', once each
  double ThreadInstructions = 0; // one thread's, loops weighted
  unsigned LoopDepth = 0;        // the deepest loop nest
};

// The trips a loop is assumed to make, per level of nesting (at most
// MaxLoopLevels levels are counted).
inline constexpr double LoopTrips = 32;
inline constexpr unsigned MaxLoopLevels = 3;

// K's work, read from its bitcode (all of its functions, each once).
llvm::Expected<KernelWork> measureKernelWork(const KernelBlob &K);

} // namespace mstage::rt

#endif
