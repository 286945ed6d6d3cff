//===- LaunchMemo.cpp - What a thread's last launches found ---------------===//
#include "launch/LaunchMemo.h"

#include <algorithm>
#include <cassert>
#include <cstddef>

namespace mstage::rt {

void LaunchMemo::noteFacts(llvm::ArrayRef<uintptr_t> Pointers,
                           llvm::ArrayRef<SlotFact> Facts,
                           uint64_t Generation) {
  assert(Pointers.size() == Facts.size() && Facts.size() <= MaxSlots &&
         "one fact per slot, of a kernel with few enough");
  FactsOf &F = Seen[NextSeen];
  NextSeen = (NextSeen + 1) % std::size(Seen);
  F.Known = true;
  F.Generation = Generation;
  std::copy(Pointers.begin(), Pointers.end(), F.Pointers);
  std::copy(Facts.begin(), Facts.end(), F.Facts);
}

LaunchMemo &launchMemo(const RegisteredKernel &K) {
  // By the kernel's address, as findKernel's thread cache: a loop of a few
  // kernels keeps each. Small: a thread-local of every launching thread.
  constexpr size_t Ways = 8;
  static thread_local LaunchMemo Memos[Ways];
  LaunchMemo &M = Memos[(reinterpret_cast<uintptr_t>(&K) >> 4) % Ways];
  if (M.K != &K) {
    M = LaunchMemo();
    M.K = &K;
  }
  return M;
}

} // namespace mstage::rt
