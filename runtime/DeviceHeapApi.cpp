//===- DeviceHeapApi.cpp - The size of the heap kernels allocate from -----===//
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "support/Export.h"

#include <string>

using namespace mstage::rt;

namespace {

// What keeps the heap of that device from being reached; "" when it can be.
std::string heapProblem(unsigned Device) {
  const Backend &B = backend();
  if (!B.usable())
    return "the device heap: " + B.reason();
  std::string Why = checkDevice(Device);
  return Why.empty() ? Why : "the device heap: " + Why;
}

} // namespace

extern "C" MSTAGE_EXPORT int mstage_rt_set_device_heap_size(unsigned Device,
                                                            uint64_t Bytes) {
  if (std::string Why = heapProblem(Device); !Why.empty())
    return failWith(failure(Why));
  // Off the GPU, kernels allocate from the host's heap.
  CudaDriver *D = backend().driver(Device);
  if (!D)
    return 0;
  if (llvm::Error E = D->setLimit(CU_LIMIT_MALLOC_HEAP_SIZE, Bytes))
    return failWith(failure(
        "mstage::set_device_heap_size(" + std::to_string(Bytes) +
        "): " + llvm::toString(std::move(E)) +
        " (the driver fixes the heap at the first launch of a kernel that "
        "allocates: set it before)"));
  return 0;
}

extern "C" MSTAGE_EXPORT int mstage_rt_device_heap_size(unsigned Device,
                                                        uint64_t *Bytes) {
  *Bytes = 0;
  if (std::string Why = heapProblem(Device); !Why.empty())
    return failWith(failure(Why));
  CudaDriver *D = backend().driver(Device);
  if (!D)
    return 0;
  size_t Value = 0;
  if (llvm::Error E = D->getLimit(CU_LIMIT_MALLOC_HEAP_SIZE, &Value))
    return failWith(std::move(E));
  *Bytes = Value;
  return 0;
}
