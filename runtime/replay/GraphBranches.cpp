//===- GraphBranches.cpp - Which operations of a replayed graph wait ------===//
#include "replay/GraphBranches.h"

#include "cache/MemoryCache.h"
#include "core/KernelRegistry.h"
#include "core/StagedLaunch.h"
#include "jit/JitCompiler.h"

#include "llvm/ADT/BitVector.h"

namespace mstage::rt {

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
  StagedLaunch Staged(*K, Entry->Key);
  Specialization Spec;
  Spec.StagedValues = Staged.Values;
  Spec.Config = Staged.config();
  llvm::SmallVector<llvm::StringRef, 8> Params;
  for (size_t I = 0; I < L.Starts.size() && I < K->Blob.NumParams; ++I)
    Params.push_back(
        llvm::StringRef(L.Bytes.data() + L.Starts[I], L.Ends[I] - L.Starts[I]));
  return launchFootprint(K->Blob, Spec, Params, Arch);
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
