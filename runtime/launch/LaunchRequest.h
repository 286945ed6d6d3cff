//===- LaunchRequest.h - One launch's arguments, resolved -------*- C++ -*-===//
//
// What the steps of a launch (the files of launch/) are handed: the
// arguments of mstage_rt_launch, and what the first steps resolved from
// them (the kernel, the effective configuration, the stream, the facts of
// the pointers).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LAUNCHREQUEST_H
#define MSTAGE_RUNTIME_LAUNCH_LAUNCHREQUEST_H

#include "transforms/LaunchFacts.h"
#include "core/KernelRegistry.h"

#include "mstage/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "formats/LaunchConfig.h"

#include <cstdint>

namespace mstage::rt {

class Stream;

struct LaunchRequest {
  // As the C ABI gives them.
  const void *HostEntry = nullptr;
  mstage_invoke_fn Invoke = nullptr;
  void *const *Params = nullptr;
  const uint32_t *ParamSizes = nullptr;
  uint32_t NumParams = 0;

  // Resolved by checkLaunch (CheckLaunch.h) and resolveArguments
  // (ResolveArguments.h), in that order.
  const RegisteredKernel *K = nullptr;
  LaunchConfig Config; // effective: MSTAGE_FAST_MATH applied
  Stream *S = nullptr;
  llvm::SmallVector<SlotFact, 8> Facts; // one per pointer slot of K
  // Resolved by placeParams (ParamSpace.h) once the staged values are known:
  // the parameters (bit I: parameter I) copied to device memory.
  uint64_t InMemory = 0;

  llvm::ArrayRef<uint32_t> paramSizes() const {
    return llvm::ArrayRef(ParamSizes, NumParams);
  }
};

} // namespace mstage::rt

#endif
