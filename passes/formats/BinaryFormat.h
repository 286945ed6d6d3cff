//===- BinaryFormat.h - What mstage's binary formats share ------*- C++ -*-===//
//
// The kernel blob, the device link data (KernelBlob.h) and the ahead-of-time
// image (AotImage.h) each start with the same prefix, then their own fields;
// all fields are little-endian and offsets are relative to the blob's start.
// Their readers check the prefix, tables and strings alike, and read a
// linked section blob by blob past the linker's padding.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_BINARYFORMAT_H
#define MSTAGE_PASSES_FORMATS_BINARYFORMAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace mstage {

// The first 24 bytes of every blob.
struct BinaryPrefix {
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderSize;
  uint64_t TotalSize; // the blob's, padding included
};
static_assert(sizeof(BinaryPrefix) == 24, "the binary prefix changed");

// One format: what its prefix holds, and its name in errors ("corrupt
// mstage <What>: ...").
struct BinaryFormat {
  const char *Magic; // 8 bytes
  uint32_t Version;
  uint32_t HeaderSize;
  const char *What;
};

BinaryPrefix makePrefix(const BinaryFormat &F, uint64_t TotalSize);

llvm::Error corrupt(const BinaryFormat &F, const llvm::Twine &Why);

// Checks the prefix of the blob at Data, of which MaxSize bytes may be read:
// magic, version, header size, and a total size that fits MaxSize.
llvm::Error checkPrefix(const BinaryFormat &F, const uint8_t *Data,
                        size_t MaxSize);

// The header at Data, once its prefix is checked; Header starts with a
// BinaryPrefix.
template <class HeaderT>
llvm::Error readHeader(const BinaryFormat &F, const uint8_t *Data,
                       size_t MaxSize, HeaderT &Header) {
  static_assert(std::is_trivially_copyable_v<HeaderT>);
  assert(F.HeaderSize == sizeof(HeaderT) && "F describes HeaderT");
  if (llvm::Error E = checkPrefix(F, Data, MaxSize))
    return E;
  std::memcpy(&Header, Data, sizeof(Header));
  return llvm::Error::success();
}

// True when [Off, Off + Size) lies within [0, Total), without overflow.
inline bool fits(uint64_t Off, uint64_t Size, uint64_t Total) {
  return Off <= Total && Size <= Total - Off;
}

// Record I of a table of Ts at Off, which the reader checked fits.
template <class T> T recordAt(const uint8_t *Data, uint64_t Off, uint64_t I) {
  static_assert(std::is_trivially_copyable_v<T>);
  T R;
  std::memcpy(&R, Data + Off + I * sizeof(T), sizeof(T));
  return R;
}

// The NUL-terminated string at Off of a blob of Total bytes.
llvm::Expected<std::string> readString(const BinaryFormat &F,
                                       const uint8_t *Data, uint64_t Total,
                                       uint64_t Off);

// Reads each blob of a linked section: the linker pads each object's part
// to Align. Read checks the blob at its argument (the rest of the section);
// the scan then moves past it, by its prefix's total size.
llvm::Error
scanSection(llvm::ArrayRef<uint8_t> Section, llvm::StringRef SectionName,
            unsigned Align,
            llvm::function_ref<llvm::Error(llvm::ArrayRef<uint8_t>)> Read);

// Every blob of a linked section, each read by ReadOne(Data, MaxSize).
template <class T>
llvm::Expected<std::vector<T>>
readSection(llvm::ArrayRef<uint8_t> Section, llvm::StringRef SectionName,
            unsigned Align,
            llvm::Expected<T> (*ReadOne)(const uint8_t *, size_t)) {
  std::vector<T> Out;
  if (llvm::Error E =
          scanSection(Section, SectionName, Align,
                      [&](llvm::ArrayRef<uint8_t> Rest) -> llvm::Error {
                        llvm::Expected<T> One =
                            ReadOne(Rest.data(), Rest.size());
                        if (!One)
                          return One.takeError();
                        Out.push_back(std::move(*One));
                        return llvm::Error::success();
                      }))
    return std::move(E);
  return Out;
}

// The strings of a blob being written: offsets into Strings, which the
// writer places after its tables.
class StringTable {
public:
  uint32_t add(llvm::StringRef S) {
    uint32_t Off = Strings.size();
    Strings.append(S.begin(), S.end());
    Strings.push_back('\0');
    return Off;
  }
  std::string Strings;
};

// Copies Bytes bytes of Data to Out at Off (nothing when Bytes is 0).
inline void place(std::string &Out, uint64_t Off, const void *Data,
                  size_t Bytes) {
  assert(fits(Off, Bytes, Out.size()) && "the layout holds what it places");
  if (Bytes)
    std::memcpy(&Out[Off], Data, Bytes);
}
template <class T>
void place(std::string &Out, uint64_t Off, llvm::ArrayRef<T> Records) {
  static_assert(std::is_trivially_copyable_v<T>);
  place(Out, Off, Records.data(), Records.size() * sizeof(T));
}

} // namespace mstage

#endif
