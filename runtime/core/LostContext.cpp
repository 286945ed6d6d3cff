//===- LostContext.cpp - Failures that a kernel's fault causes ------------===//
#include "core/LostContext.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"

namespace mstage::rt {

bool contextLost(CUresult Code) {
  switch (Code) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return true;
  default:
    return false;
  }
}

llvm::Error failureOrFault(llvm::Error Failure, Stream *S,
                           const std::string &What) {
  if (Failure && contextLost(cudaErrorCode(Failure)))
    return asyncFailure(std::move(Failure), S, What);
  return context(std::move(Failure), What);
}

} // namespace mstage::rt
