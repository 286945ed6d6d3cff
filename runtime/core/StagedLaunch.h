//===- StagedLaunch.h - A launch's configuration and staged values --------===//
#ifndef MSTAGE_RUNTIME_CORE_STAGEDLAUNCH_H
#define MSTAGE_RUNTIME_CORE_STAGEDLAUNCH_H

#include "formats/LaunchConfig.h"
#include "core/KernelRegistry.h"
#include "transforms/LaunchFacts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <string_view>

namespace mstage::rt {

// One launch's specialization: the launch configuration, then each staged
// value at a 16-byte aligned offset (zero padded), then the launch's facts
// about its pointers (LaunchFacts.h), in one buffer on the stack that is
// also the in-memory cache key.
class StagedLaunch {
public:
  StagedLaunch(const RegisteredKernel &K, void *const *Params,
               const LaunchConfig &Config,
               llvm::ArrayRef<SlotFact> Facts = {}) {
    const auto &Sites = K.Blob.StageSites;
    size_t Size = ConfigChunks * sizeof(Chunk);
    for (const mstage::StageSite &S : Sites)
      Size += llvm::alignTo(S.Size, sizeof(Chunk));
    StagedEnd = Size;
    Size += llvm::alignTo(Facts.size() * sizeof(SlotFact), sizeof(Chunk));
    Chunks.resize(Size / sizeof(Chunk)); // zeroed
    static_assert(sizeof(SlotFact) == 2, "a fact is two bytes in the key");
    if (!Facts.empty())
      std::memcpy(bytes() + StagedEnd, Facts.data(),
                  Facts.size() * sizeof(SlotFact));
    this->Facts = llvm::ArrayRef<SlotFact>(
        reinterpret_cast<const SlotFact *>(bytes() + StagedEnd), Facts.size());
    std::memcpy(Chunks.data(), &Config, sizeof(Config));
    size_t Offset = ConfigChunks * sizeof(Chunk);
    for (size_t I = 0; I < Sites.size(); ++I) {
      char *At = bytes() + Offset;
      if (K.Record->evaluators[I](Params, &Config, At) && GaveUp < 0)
        GaveUp = int(I);
      Values.push_back(llvm::StringRef(At, Sites[I].Size));
      Offset += llvm::alignTo(Sites[I].Size, sizeof(Chunk));
    }
  }
  // The launch whose key() is Key, rebuilt (by a background compile).
  StagedLaunch(const RegisteredKernel &K, std::string_view Key) {
    Chunks.resize(Key.size() / sizeof(Chunk));
    std::memcpy(bytes(), Key.data(), Chunks.size() * sizeof(Chunk));
    size_t Offset = ConfigChunks * sizeof(Chunk);
    for (const mstage::StageSite &S : K.Blob.StageSites) {
      Values.push_back(llvm::StringRef(bytes() + Offset, S.Size));
      Offset += llvm::alignTo(S.Size, sizeof(Chunk));
    }
    StagedEnd = Offset;
    // The rest is the facts, one per pointer slot, when the launch had any.
    if (Key.size() > StagedEnd)
      Facts = llvm::ArrayRef<SlotFact>(
          reinterpret_cast<const SlotFact *>(bytes() + StagedEnd),
          K.Blob.PointerSlots.size());
  }
  LaunchConfig config() const {
    LaunchConfig C;
    std::memcpy(&C, bytes(), sizeof(C));
    return C;
  }
  std::string_view key() const {
    return {bytes(), Chunks.size() * sizeof(Chunk)};
  }
  llvm::StringRef stagedBytes() const {
    return llvm::StringRef(key().data(), StagedEnd)
        .drop_front(ConfigChunks * sizeof(Chunk));
  }
  // The facts part of key(), for the disk cache's key.
  llvm::StringRef factBytes() const {
    return llvm::StringRef(key().data(), key().size()).drop_front(StagedEnd);
  }
  llvm::SmallVector<llvm::StringRef, 4> Values; // one per site, into key()
  llvm::ArrayRef<SlotFact> Facts;               // into key(); may be empty
  int GaveUp = -1; // the first site whose evaluator gave up

private:
  struct alignas(16) Chunk {
    char B[16];
  };
  static constexpr size_t ConfigChunks =
      (sizeof(LaunchConfig) + sizeof(Chunk) - 1) / sizeof(Chunk);
  char *bytes() const {
    return reinterpret_cast<char *>(const_cast<Chunk *>(Chunks.data()));
  }
  llvm::SmallVector<Chunk, 16> Chunks;
  size_t StagedEnd = 0; // where the staged values end in key()
};

} // namespace mstage::rt

#endif
