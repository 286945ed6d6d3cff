//===- AllocationMap.cpp - The memory the runtime handed out --------------===//
#include "AllocationMap.h"

#include <map>
#include <mutex>
#include <shared_mutex>

namespace mstage::rt {
namespace {

struct Allocations {
  std::shared_mutex Lock;
  std::map<uintptr_t, size_t> Sizes; // start -> bytes
};

// Never destroyed: memory may be freed from static destructors.
Allocations &allocations() {
  static Allocations *A = new Allocations;
  return *A;
}

} // namespace

void noteAllocation(const void *Start, size_t Bytes) {
  if (!Start)
    return;
  Allocations &A = allocations();
  std::unique_lock<std::shared_mutex> G(A.Lock);
  A.Sizes[reinterpret_cast<uintptr_t>(Start)] = Bytes ? Bytes : 1;
}

void forgetAllocation(const void *Start) {
  if (!Start)
    return;
  Allocations &A = allocations();
  std::unique_lock<std::shared_mutex> G(A.Lock);
  A.Sizes.erase(reinterpret_cast<uintptr_t>(Start));
}

uintptr_t allocationStart(uintptr_t P) {
  Allocations &A = allocations();
  std::shared_lock<std::shared_mutex> G(A.Lock);
  auto It = A.Sizes.upper_bound(P);
  if (It == A.Sizes.begin())
    return 0;
  --It;
  return P - It->first < It->second ? It->first : 0;
}

} // namespace mstage::rt
