//===- ParamsInMemory.cpp - A launch's large parameters in device memory --===//
#include "core/ParamsInMemory.h"

#include "llvm/Support/MathExtras.h"

namespace mstage::rt {

std::string ParamsInMemory::copy(CudaDriver &D, CUstream Stream,
                                 void *const *Params, const uint32_t *Sizes,
                                 uint32_t NumParams, uint64_t Mask) {
  // One allocation, each parameter 16-byte aligned in it (as alignas allows).
  uint64_t Bytes = 0;
  for (uint32_t I = 0; I < NumParams && I < 64; ++I)
    if (Mask >> I & 1)
      Bytes = llvm::alignTo(Bytes, 16) + Sizes[I];
  if (Status S = D.allocAsync(Bytes, Stream, &Block); !S)
    return S.Message;
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
    if (Status S = D.copyToDeviceAsync(At, Params[I], Sizes[I], Stream); !S)
      return S.Message;
    Addresses.push_back(At);
    Ptrs[I] = &Addresses.back();
    Offset += Sizes[I];
  }
  return "";
}

ParamsInMemory::~ParamsInMemory() {
  // A failure here is the stream's, and surfaces at its next synchronizing
  // call.
  if (Block)
    (void)Driver->freeAsync(Block, On);
}

} // namespace mstage::rt
