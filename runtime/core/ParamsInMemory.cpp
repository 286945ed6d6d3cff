//===- ParamsInMemory.cpp - A launch's large parameters in device memory --===//
#include "core/ParamsInMemory.h"

#include "llvm/Support/MathExtras.h"

namespace mstage::rt {

llvm::Error ParamsInMemory::copy(CudaDriver &D, CUstream Stream,
                                 void *const *Params, const uint32_t *Sizes,
                                 uint32_t NumParams, uint64_t Mask) {
  // One allocation, each parameter 16-byte aligned in it (as alignas allows).
  uint64_t Bytes = 0;
  for (uint32_t I = 0; I < NumParams && I < 64; ++I)
    if (Mask >> I & 1)
      Bytes = llvm::alignTo(Bytes, 16) + Sizes[I];
  if (llvm::Error E = D.allocAsync(Bytes, Stream, &Block))
    return E;
  Driver = &D;
  On = Stream;
  Ptrs.assign(Params, Params + NumParams);
  Addresses.reserve(llvm::popcount(Mask)); // Ptrs point into it
  uint64_t Offset = 0;
  for (uint32_t I = 0; I < NumParams && I < 64; ++I) {
    if (!(Mask >> I & 1))
      continue;
    Offset = llvm::alignTo(Offset, 16);
    CUdeviceptr At = Block + Offset;
    if (llvm::Error E = D.copyToDeviceAsync(At, Params[I], Sizes[I], Stream))
      return E;
    Addresses.push_back(At);
    Ptrs[I] = &Addresses.back();
    Offset += Sizes[I];
  }
  return llvm::Error::success();
}

ParamsInMemory::~ParamsInMemory() {
  // A failure here is the stream's, and surfaces at its next synchronizing
  // call.
  if (Block)
    llvm::consumeError(Driver->freeAsync(Block, On));
}

} // namespace mstage::rt
