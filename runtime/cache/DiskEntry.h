//===- DiskEntry.h - The bytes of one disk-cache entry --------------------===//
//
// An entry is a 64-byte header (magic, version, header size, the 16-byte
// key, the sizes and checksums of the PTX and of the cubin; all fields
// little-endian) followed by the PTX and the cubin. Each checksum is the
// xxh3 of the key followed by its section, so that a body moved under
// another key's header does not validate. Pure functions over bytes, with
// only LLVM Support below them: the fuzzer (fuzz/DiskEntryFuzzer.cpp)
// feeds them anything.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CACHE_DISKENTRY_H
#define MSTAGE_RUNTIME_CACHE_DISKENTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mstage::rt {

constexpr size_t DiskEntryHeaderSize = 64;
constexpr size_t DiskEntryKeySize = 16;

// The sections of a valid entry, pointing into the bytes it was read from.
struct DiskEntryView {
  llvm::StringRef PTX;
  llvm::StringRef Cubin; // empty when there is none
};

// The entry for Key (DiskEntryKeySize bytes) holding PTX and Cubin.
std::string encodeDiskEntry(llvm::ArrayRef<uint8_t> Key, llvm::StringRef PTX,
                            llvm::StringRef Cubin);

// The whole entry's size as its header gives it, checked against Key and
// for overflow; Header is at least the first DiskEntryHeaderSize bytes. A
// reader reads no more than this.
llvm::Expected<uint64_t> diskEntrySize(llvm::ArrayRef<uint8_t> Key,
                                       llvm::StringRef Header);

// The sections of Data when it is a whole, undamaged entry for Key; else an
// error saying what is wrong (e.g. "truncated (100 bytes, header says 850)").
llvm::Expected<DiskEntryView> decodeDiskEntry(llvm::ArrayRef<uint8_t> Key,
                                              llvm::StringRef Data);

} // namespace mstage::rt

#endif
