//===- LaunchFactsOf.h - Placing a launch's pointers -----------*- C++ -*-===//
//
// At each launch, the pointer in every slot of the kernel (PointerSlots.h)
// is placed: which allocation it is in (the runtime's own, or one the
// driver knows) and how it is aligned. That gives the JIT its facts
// (LaunchFacts.h), and catches a pointer into pageable host memory, which
// the GPU cannot read, before the kernel runs.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_LAUNCHFACTSOF_H
#define MSTAGE_RUNTIME_CORE_LAUNCHFACTSOF_H

#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "transforms/LaunchFacts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace mstage::rt {

// Facts gets one entry per pointer slot of K. Fails with what is wrong with
// a pointer, naming the argument or capture that holds it. A Preview
// (prepare()) has host pointers where the launch will have device copies
// of std::vector arguments: each counts as an allocation of its own.
llvm::Error launchFactsOf(const RegisteredKernel &K, const Backend &B,
                          void *const *Params, const uint32_t *ParamSizes,
                          uint32_t NumParams, bool Preview,
                          llvm::SmallVectorImpl<SlotFact> &Facts);

} // namespace mstage::rt

#endif
