//===- DiskEntryFuzzer.cpp - libFuzzer target: the disk-cache entry reader ===//
//
// The input is a 16-byte key followed by the bytes of an entry file (the
// seed corpus in corpus/DiskEntryFuzzer/ is made that way from entries that the
// runtime wrote). The reader must never crash, read out of bounds or accept
// an entry whose sections do not lie inside it; what it accepts must encode
// back to the same bytes.
//
//===----------------------------------------------------------------------===//
#include "cache/DiskEntry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>

using namespace mstage::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < DiskEntryKeySize)
    return 0;
  llvm::ArrayRef<uint8_t> Key(Data, DiskEntryKeySize);
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data) + DiskEntryKeySize,
                        Size - DiskEntryKeySize);
  if (llvm::Expected<uint64_t> Whole = diskEntrySize(Key, Bytes); !Whole)
    llvm::consumeError(Whole.takeError());
  llvm::Expected<DiskEntryView> V = decodeDiskEntry(Key, Bytes);
  if (!V) {
    llvm::consumeError(V.takeError());
    return 0;
  }
  if (encodeDiskEntry(Key, V->PTX, V->Cubin) != Bytes)
    std::abort(); // accepted bytes that the writer would not write
  return 0;
}
