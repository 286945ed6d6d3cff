//===- GraphBranches.cpp - Which operations of a replayed graph wait ------===//
#include "replay/GraphBranches.h"

#include "cache/MemoryCache.h"
#include "core/KernelRegistry.h"
#include "core/StagedLaunch.h"
#include "jit/JitCompiler.h"

#include "llvm/ADT/BitVector.h"

#include <mutex>
#include <string>
#include <unordered_map>

namespace mstage::rt {

namespace {

// Kernels' footprints by what decides them: the kernel (its registration
// is never freed, so no other kernel gets its address), its
// specialization's key and the launch's parameter bytes; a launch that comes
// back in another period, or a graph that a loop makes again, is not
// analysed again. Emptied when full.
struct FootprintCache {
  std::mutex Lock;
  std::unordered_map<std::string, AccessFootprint> Known;
  static constexpr size_t MaxEntries = 256;
};

FootprintCache &footprintCache() {
  static auto *C = new FootprintCache; // used at exit, by the last replays
  return *C;
}

} // namespace

llvm::Expected<AccessFootprint> footprintOf(const HeldLaunch &L,
                                            llvm::StringRef Arch) {
  AccessFootprint F;
  F.Bounded = true;
  switch (L.What) {
  case HeldLaunch::Kind::Fill:
    F.Writes.push_back({L.Dst, L.Dst + L.ElementBytes * L.Count});
    return F;
  case HeldLaunch::Kind::Copy:
    F.Reads.push_back({L.Src, L.Src + L.ElementBytes});
    F.Writes.push_back({L.Dst, L.Dst + L.ElementBytes});
    return F;
  case HeldLaunch::Kind::Kernel:
    break;
  }
  std::string Why;
  const RegisteredKernel *K = findKernel(L.Kernel, Why);
  if (!K || !L.Specialization)
    return AccessFootprint::unbounded();
  // The specialization's staged values and configuration, from its key.
  const auto *Entry = static_cast<const CacheEntry *>(L.Specialization);
  // Each part after its length: no two launches' keys run together.
  std::string Key;
  for (llvm::StringRef Part :
       {llvm::StringRef(reinterpret_cast<const char *>(&K), sizeof(K)), Arch,
        llvm::StringRef(Entry->Key)}) {
    uint64_t Size = Part.size();
    Key.append(reinterpret_cast<const char *>(&Size), sizeof(Size));
    Key += Part;
  }
  Key.append(L.Bytes.data(), L.Bytes.size());
  FootprintCache &Cache = footprintCache();
  {
    std::lock_guard<std::mutex> G(Cache.Lock);
    if (auto It = Cache.Known.find(Key); It != Cache.Known.end())
      return It->second;
  }
  StagedLaunch Staged(*K, Entry->Key);
  Specialization Spec;
  Spec.StagedValues = Staged.Values;
  Spec.Config = Staged.config();
  llvm::SmallVector<llvm::StringRef, 8> Params;
  for (size_t I = 0; I < L.Starts.size() && I < K->Blob.NumParams; ++I)
    Params.push_back(
        llvm::StringRef(L.Bytes.data() + L.Starts[I], L.Ends[I] - L.Starts[I]));
  llvm::Expected<AccessFootprint> Made =
      launchFootprint(K->Blob, Spec, Params, Arch);
  if (!Made)
    return Made.takeError();
  std::lock_guard<std::mutex> G(Cache.Lock);
  if (Cache.Known.size() >= FootprintCache::MaxEntries)
    Cache.Known.clear();
  Cache.Known.emplace(std::move(Key), *Made);
  return Made;
}

std::vector<llvm::SmallVector<unsigned, 4>>
orderingOf(llvm::ArrayRef<AccessFootprint> Footprints, unsigned Count) {
  std::vector<llvm::SmallVector<unsigned, 4>> After(Count);
  // Before[K]: every operation K runs after, directly or not.
  std::vector<llvm::BitVector> Before(Count, llvm::BitVector(Count));
  // The operations repeat with the period: each pair is measured once.
  size_t P = Footprints.size();
  std::vector<bool> Meet(P * P);
  for (size_t A = 0; A < P; ++A)
    for (size_t B = 0; B < P; ++B)
      Meet[A * P + B] = accessesMeet(Footprints[A], Footprints[B]);
  for (unsigned K = 0; K < Count; ++K) {
    // Nearest first: a farther one that a nearer one already follows needs
    // no edge of its own.
    for (unsigned J = K; J-- > 0;) {
      if (Before[K].test(J) || !Meet[J % P * P + K % P])
        continue;
      After[K].push_back(J);
      Before[K] |= Before[J];
      Before[K].set(J);
    }
  }
  return After;
}

} // namespace mstage::rt
