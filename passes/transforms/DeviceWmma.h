//===- DeviceWmma.h - Tensor-core builtins as NVVM wmma intrinsics --------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEWMMA_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEWMMA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

namespace mstage {

// The __mstage_wmma_* builtins of include/mstage/builtins.h (mstage/
// wmma.hpp) as the llvm.nvvm.wmma.m16n16k16.* intrinsic that their constant
// operands name, with the fragment moved between the intrinsic's values and
// the lane's fragment in memory (which SROA then keeps in registers). Returns
// the intrinsic's call, or null for another name.
llvm::Value *emitWmmaBuiltin(llvm::IRBuilder<> &B, llvm::StringRef Name,
                             llvm::CallInst &CI);

// Gives the wmma loads and stores whose address, after optimization, can
// only point into shared memory (a `.shared` variable, through casts, GEPs,
// selects and PHIs) the shared-state-space form of their intrinsic:
// wmma.load.*.shared, which ptxas makes ldmatrix-like shared loads, rather
// than generic loads through the address.
void useSharedWmmaAddresses(llvm::Module &M);

} // namespace mstage

#endif
