//===- KernelBlobFuzzer.cpp - Fuzz the kernel-blob reader -----------------===//
//
// The input is an mstage_kernels section, as mstage-ptx reads it from a file
// and the runtime reads one blob of it from a registered object. Whatever
// the bytes, the readers must give blobs that lie within them, or an error.
// The seeds (corpus/KernelBlobFuzzer) are sections of objects built by
// mstage++.
//
//===----------------------------------------------------------------------===//
#include "formats/KernelBlob.h"
#include "formats/StageValueText.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mstage;

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

// Where the header keeps what the mutator fixes (see KernelBlob.cpp).
constexpr size_t TotalSizeAt = 16, HashAt = 24, BitcodeOffsetAt = 32,
                 BitcodeSizeAt = 40, HeaderBytes = 112;

uint64_t load64(const uint8_t *P) {
  uint64_t V;
  std::memcpy(&V, P, 8);
  return V;
}

// Checks that Inner lies within [Data, Data + Size).
void checkWithin(llvm::StringRef Inner, const uint8_t *Data, size_t Size) {
  auto *B = reinterpret_cast<const uint8_t *>(Inner.data());
  if (!Inner.empty() && (B < Data || Inner.size() > size_t(Data + Size - B)))
    std::abort();
}

void use(const KernelBlob &B, const uint8_t *Data, size_t Size) {
  checkWithin(B.Bitcode, Data, Size);
  if (hashBitcode(B.Bitcode) != B.BitcodeHash)
    std::abort(); // the reader must have checked it
  for (const StageSite &S : B.StageSites) {
    if (S.Size > MaxStageValueSize)
      std::abort();
    std::string Zero(S.Size, '\0');
    (void)formatStageValue(S, Zero);
    (void)stageTypeName(S);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto Blobs = readKernelSection(llvm::ArrayRef<uint8_t>(Data, Size));
  if (Blobs) {
    for (const KernelBlob &B : *Blobs)
      use(B, Data, Size);
  } else {
    llvm::consumeError(Blobs.takeError());
  }
  // The runtime's reader: one blob, bounded by the record's size.
  auto One = readKernelBlob(Data, Size);
  if (One)
    use(*One, Data, Size);
  else
    llvm::consumeError(One.takeError());
  // The device link reader: its header keeps the size, hash and bitcode at
  // the same offsets, so the mutator's fixes reach it too.
  auto Link = readDeviceLinkBlob(Data, Size);
  if (Link) {
    checkWithin(Link->Bitcode, Data, Size);
    if (hashBitcode(Link->Bitcode) != Link->BitcodeHash)
      std::abort();
  } else {
    llvm::consumeError(Link.takeError());
  }
  return 0;
}

// Most mutations break the bitcode hash, which the reader checks first of
// all that follows; so half of the mutants get the hash of their (in-bounds)
// bitcode, to reach the rest of the reader.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  Size = LLVMFuzzerMutate(Data, Size, MaxSize);
  if (Seed % 2)
    return Size;
  for (size_t Off = 0; Off + HeaderBytes <= Size; Off += KernelBlobAlign) {
    uint8_t *H = Data + Off;
    if (std::memcmp(H, KernelBlobMagic, sizeof(KernelBlobMagic)) != 0)
      continue;
    uint64_t Total = load64(H + TotalSizeAt),
             BcOff = load64(H + BitcodeOffsetAt),
             BcSize = load64(H + BitcodeSizeAt);
    size_t Room = Size - Off;
    if (Total > Room || BcOff > Total || BcSize > Total - BcOff)
      continue;
    uint64_t Hash = hashBitcode(
        llvm::StringRef(reinterpret_cast<const char *>(H + BcOff), BcSize));
    std::memcpy(H + HashAt, &Hash, 8);
  }
  return Size;
}
