//===- CpuSharedArrays.cpp - shared_array storage on the CPU back end -----===//
#include "backends/cpu/CpuSharedArrays.h"
#include "core/ThreadOwned.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <tuple>

namespace mstage::rt {
namespace {

using Key =
    std::tuple<const char *, unsigned, unsigned, unsigned, uint64_t, unsigned>;

struct Free {
  void operator()(void *P) const { std::free(P); }
};

// One OS thread's arrays. Each thread of a block constructs every
// shared_array it declares, so the last one found answers most calls.
struct ThreadArrays {
  llvm::DenseMap<Key, std::unique_ptr<void, Free>> Arrays;
  Key LastKey{};
  void *Last = nullptr;

  void *get(const Key &K) {
    if (Last && K == LastKey)
      return Last;
    auto &Slot = Arrays[K];
    if (!Slot) {
      // At least 64-byte aligned, so that no array shares a cache line with
      // another thread's.
      uint64_t A = std::max<uint64_t>(std::get<5>(K), 64);
      uint64_t Size = llvm::alignTo(std::max<uint64_t>(std::get<4>(K), 1), A);
      Slot.reset(std::aligned_alloc(A, Size));
      if (!Slot)
        return nullptr;
    }
    LastKey = K;
    return Last = Slot.get();
  }
};

} // namespace

void *cpuSharedArray(uint64_t Bytes, unsigned Align, const char *File,
                     unsigned Line, unsigned Column, unsigned Site) {
  if (!llvm::isPowerOf2_64(Align))
    Align = 1;
  return ThreadOwned<ThreadArrays>::get().get(
      Key{File, Line, Column, Site, Bytes, Align});
}

} // namespace mstage::rt
