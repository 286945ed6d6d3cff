//===- AllocationMap.cpp - The memory the runtime handed out --------------===//
#include "core/AllocationMap.h"

#include <map>
#include <mutex>
#include <shared_mutex>

namespace mstage::rt {
namespace {

struct Allocation {
  size_t Bytes;
  int Device;
};

struct Allocations {
  std::shared_mutex Lock;
  std::map<uintptr_t, Allocation> Sizes; // by start
};

// Never destroyed: memory may be freed from static destructors.
Allocations &allocations() {
  static Allocations *A = new Allocations;
  return *A;
}

} // namespace

void noteAllocation(const void *Start, size_t Bytes, int Device) {
  if (!Start)
    return;
  Allocations &A = allocations();
  std::unique_lock<std::shared_mutex> G(A.Lock);
  A.Sizes[reinterpret_cast<uintptr_t>(Start)] = {Bytes ? Bytes : 1, Device};
}

void forgetAllocation(const void *Start) {
  if (!Start)
    return;
  Allocations &A = allocations();
  std::unique_lock<std::shared_mutex> G(A.Lock);
  A.Sizes.erase(reinterpret_cast<uintptr_t>(Start));
}

namespace {

// The allocation that holds P, or null; under A.Lock. A pointer one past
// the end is the allocation's (an end() passed as a raw pointer), unless
// another allocation starts there.
const std::pair<const uintptr_t, Allocation> *holding(Allocations &A,
                                                      uintptr_t P) {
  auto It = A.Sizes.upper_bound(P);
  if (It == A.Sizes.begin())
    return nullptr;
  --It;
  return P - It->first <= It->second.Bytes ? &*It : nullptr;
}

} // namespace

uintptr_t allocationStart(uintptr_t P) {
  Allocations &A = allocations();
  std::shared_lock<std::shared_mutex> G(A.Lock);
  const auto *Found = holding(A, P);
  return Found ? Found->first : 0;
}

int allocationDevice(uintptr_t P) {
  Allocations &A = allocations();
  std::shared_lock<std::shared_mutex> G(A.Lock);
  const auto *Found = holding(A, P);
  return Found ? Found->second.Device : NoDevice;
}

} // namespace mstage::rt
