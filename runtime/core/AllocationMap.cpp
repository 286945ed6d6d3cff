//===- AllocationMap.cpp - The memory the runtime handed out --------------===//
#include "core/AllocationMap.h"

#include <atomic>
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
  // Changes with every allocation noted or forgotten, under the lock: the
  // threads' caches of allocations they found check it.
  std::atomic<uint64_t> Generation{0};
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
  A.Generation.fetch_add(1, std::memory_order_release);
}

void forgetAllocation(const void *Start) {
  if (!Start)
    return;
  Allocations &A = allocations();
  std::unique_lock<std::shared_mutex> G(A.Lock);
  A.Sizes.erase(reinterpret_cast<uintptr_t>(Start));
  A.Generation.fetch_add(1, std::memory_order_release);
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

uint64_t allocationGeneration() {
  return allocations().Generation.load(std::memory_order_acquire);
}

namespace {

// The allocations that the calling thread found last, valid for one
// generation of the map: a launch finds its vectors without the lock (they
// are mostly the last launch's). Small: a thread-local of every launching
// thread.
struct RecentAllocations {
  static constexpr unsigned Ways = 8;
  uint64_t Generation = 0;
  uintptr_t Start[Ways] = {};
  size_t Bytes[Ways] = {}; // 0: an empty way
  unsigned Next = 0;       // the way the next one found replaces

  // The start of the allocation found earlier that P is in, short of its end
  // (one past the end may be another allocation's start), or 0.
  uintptr_t startOf(uintptr_t P, uint64_t Now) {
    if (Now != Generation) {
      *this = RecentAllocations();
      Generation = Now;
      return 0;
    }
    for (unsigned I = 0; I < Ways; ++I)
      if (P - Start[I] < Bytes[I])
        return Start[I];
    return 0;
  }
  void note(uintptr_t S, size_t B) {
    Start[Next] = S;
    Bytes[Next] = B;
    Next = (Next + 1) % Ways;
  }
};
thread_local RecentAllocations Recent;

} // namespace

uintptr_t allocationStart(uintptr_t P) {
  Allocations &A = allocations();
  uint64_t Now = allocationGeneration();
  if (uintptr_t Start = Recent.startOf(P, Now))
    return Start;
  std::shared_lock<std::shared_mutex> G(A.Lock);
  const auto *Found = holding(A, P);
  if (!Found)
    return 0;
  // Noted only when the map is still what Now says (a change meanwhile
  // empties the cache at the next lookup anyway).
  if (A.Generation.load(std::memory_order_relaxed) == Now)
    Recent.note(Found->first, Found->second.Bytes);
  return Found->first;
}

int allocationDevice(uintptr_t P) {
  Allocations &A = allocations();
  std::shared_lock<std::shared_mutex> G(A.Lock);
  const auto *Found = holding(A, P);
  return Found ? Found->second.Device : NoDevice;
}

} // namespace mstage::rt
