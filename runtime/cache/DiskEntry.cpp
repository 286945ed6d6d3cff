//===- DiskEntry.cpp - The bytes of one disk-cache entry ------------------===//
#include "cache/DiskEntry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstring>

using namespace llvm;

namespace mstage::rt {
namespace {

constexpr char EntryMagic[8] = {'M', 'S', 'T', 'G', 'C', 'A', 'C', 'H'};
// 3: the checksums cover the key.
constexpr uint32_t EntryVersion = 3;

// Field offsets in the header.
enum : size_t {
  MagicAt = 0,
  VersionAt = 8,
  HeaderSizeAt = 12,
  KeyAt = 16,
  PtxSizeAt = 32,
  CubinSizeAt = 40,
  PtxChecksumAt = 48,
  CubinChecksumAt = 56,
};
static_assert(CubinChecksumAt + 8 == DiskEntryHeaderSize);

uint64_t checksum(ArrayRef<uint8_t> Key, StringRef Section) {
  SmallString<4096> Bytes(
      StringRef(reinterpret_cast<const char *>(Key.data()), Key.size()));
  Bytes += Section;
  return xxh3_64bits(StringRef(Bytes));
}

template <class T> T field(StringRef Header, size_t At) {
  return support::endian::read<T, llvm::endianness::little>(Header.data() + At);
}

Error damaged(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

} // namespace

std::string encodeDiskEntry(ArrayRef<uint8_t> Key, StringRef PTX,
                            StringRef Cubin) {
  assert(Key.size() == DiskEntryKeySize && "a cache key has 16 bytes");
  std::string Out(DiskEntryHeaderSize, '\0');
  char *H = Out.data();
  using support::endian::write;
  constexpr auto LE = llvm::endianness::little;
  std::memcpy(H + MagicAt, EntryMagic, sizeof(EntryMagic));
  write<uint32_t, LE>(H + VersionAt, EntryVersion);
  write<uint32_t, LE>(H + HeaderSizeAt, uint32_t(DiskEntryHeaderSize));
  std::memcpy(H + KeyAt, Key.data(), DiskEntryKeySize);
  write<uint64_t, LE>(H + PtxSizeAt, PTX.size());
  write<uint64_t, LE>(H + CubinSizeAt, Cubin.size());
  write<uint64_t, LE>(H + PtxChecksumAt, checksum(Key, PTX));
  write<uint64_t, LE>(H + CubinChecksumAt, checksum(Key, Cubin));
  Out.append(PTX.data(), PTX.size());
  Out.append(Cubin.data(), Cubin.size());
  return Out;
}

Expected<uint64_t> diskEntrySize(ArrayRef<uint8_t> Key, StringRef Header) {
  if (Key.size() != DiskEntryKeySize)
    return damaged("the key has " + utostr(Key.size()) + " bytes");
  if (Header.size() < DiskEntryHeaderSize)
    return damaged("truncated (" + utostr(Header.size()) + " bytes)");
  if (std::memcmp(Header.data() + MagicAt, EntryMagic, sizeof(EntryMagic)))
    return damaged("not an mstage cache entry");
  if (field<uint32_t>(Header, VersionAt) != EntryVersion ||
      field<uint32_t>(Header, HeaderSizeAt) != DiskEntryHeaderSize)
    return damaged("written by another version of mstage");
  if (std::memcmp(Header.data() + KeyAt, Key.data(), DiskEntryKeySize))
    return damaged("holds another key");
  uint64_t Ptx = field<uint64_t>(Header, PtxSizeAt);
  uint64_t Cubin = field<uint64_t>(Header, CubinSizeAt);
  // Sizes beyond 2^62 are damage, and the sum below cannot overflow.
  constexpr uint64_t Max = uint64_t(1) << 62;
  if (Ptx > Max || Cubin > Max)
    return damaged("sizes out of range (PTX " + utostr(Ptx) + ", cubin " +
                   utostr(Cubin) + " bytes)");
  return DiskEntryHeaderSize + Ptx + Cubin;
}

Expected<DiskEntryView> decodeDiskEntry(ArrayRef<uint8_t> Key, StringRef Data) {
  Expected<uint64_t> Size = diskEntrySize(Key, Data);
  if (!Size)
    return Size.takeError();
  if (Data.size() != *Size)
    return damaged(Twine(Data.size() < *Size ? "truncated" : "too long") +
                   " (" + utostr(Data.size()) + " bytes, header says " +
                   utostr(*Size) + ")");
  uint64_t PtxSize = field<uint64_t>(Data, PtxSizeAt);
  DiskEntryView V;
  V.PTX = Data.substr(DiskEntryHeaderSize, PtxSize);
  V.Cubin = Data.substr(DiskEntryHeaderSize + PtxSize);
  assert(V.PTX.size() == PtxSize && "diskEntrySize bounded the sections");
  if (checksum(Key, V.PTX) != field<uint64_t>(Data, PtxChecksumAt) ||
      checksum(Key, V.Cubin) != field<uint64_t>(Data, CubinChecksumAt))
    return damaged("checksum mismatch");
  return V;
}

} // namespace mstage::rt
