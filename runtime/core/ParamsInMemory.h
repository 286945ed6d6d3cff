//===- ParamsInMemory.h - A launch's large parameters in device memory ----===//
//
// A kernel whose parameters are over the parameter-space limit reads its
// largest ones from device memory (passes/transforms/CaptureInMemory.h). At
// each GPU launch, those parameters are copied into one allocation from the
// runtime's stream-ordered pool, on the launch's stream, and the kernel gets
// their addresses; the allocation is freed on the same stream after the
// launch, so it returns to the pool when the kernel is done. Nothing waits:
// cuMemcpyHtoDAsync copies pageable host memory into a staging buffer
// before it returns (CUDA's "API synchronization behavior"), so the
// caller's copy of the parameters may go at once.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_PARAMSINMEMORY_H
#define MSTAGE_RUNTIME_CORE_PARAMSINMEMORY_H

#include "cuda/CudaDriver.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mstage::rt {

class ParamsInMemory {
public:
  // Copies the parameters in Mask (bit I: parameter I) to device memory on
  // Stream; the driver's failure, if one fails.
  llvm::Error copy(CudaDriver &D, CUstream Stream, void *const *Params,
                   const uint32_t *Sizes, uint32_t NumParams, uint64_t Mask);
  // The launch's parameters: the moved ones are their device addresses.
  void **params() { return Ptrs.data(); }
  // Frees the copies on their stream, after the work enqueued there so far
  // (the launch that reads them).
  ~ParamsInMemory();

private:
  llvm::SmallVector<void *, 16> Ptrs;
  llvm::SmallVector<CUdeviceptr, 4> Addresses; // what Ptrs point to
  CUdeviceptr Block = 0;
  CudaDriver *Driver = nullptr;
  CUstream On = nullptr;
};

} // namespace mstage::rt

#endif
