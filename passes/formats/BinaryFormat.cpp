//===- BinaryFormat.cpp - What mstage's binary formats share --------------===//
#include "formats/BinaryFormat.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace mstage {

BinaryPrefix makePrefix(const BinaryFormat &F, uint64_t TotalSize) {
  BinaryPrefix P;
  std::memcpy(P.Magic, F.Magic, sizeof(P.Magic));
  P.Version = F.Version;
  P.HeaderSize = F.HeaderSize;
  P.TotalSize = TotalSize;
  return P;
}

Error corrupt(const BinaryFormat &F, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt mstage " + Twine(F.What) + ": " + Why);
}

Error checkPrefix(const BinaryFormat &F, const uint8_t *Data, size_t MaxSize) {
  if (MaxSize < F.HeaderSize ||
      std::memcmp(Data, F.Magic, sizeof(BinaryPrefix::Magic)) != 0)
    return corrupt(F, "bad magic");
  BinaryPrefix P;
  std::memcpy(&P, Data, sizeof(P));
  if (P.Version != F.Version)
    return corrupt(F, "version " + Twine(P.Version) +
                          ", this tool reads version " + Twine(F.Version) +
                          "; rebuild with this mstage++");
  if (P.HeaderSize != F.HeaderSize)
    return corrupt(F, "header size " + Twine(P.HeaderSize) + ", expected " +
                          Twine(F.HeaderSize));
  if (P.TotalSize < F.HeaderSize || P.TotalSize > MaxSize)
    return corrupt(F, "size " + Twine(P.TotalSize) + " out of range (" +
                          Twine(F.HeaderSize) + " to " +
                          Twine(uint64_t(MaxSize)) + " bytes)");
  return Error::success();
}

Expected<std::string> readString(const BinaryFormat &F, const uint8_t *Data,
                                 uint64_t Total, uint64_t Off) {
  if (Off >= Total)
    return corrupt(F, "string offset " + Twine(Off) + " out of range");
  const char *S = reinterpret_cast<const char *>(Data + Off);
  size_t Len = strnlen(S, Total - Off);
  if (Len == Total - Off)
    return corrupt(F, "unterminated string at offset " + Twine(Off));
  return std::string(S, Len);
}

Error scanSection(ArrayRef<uint8_t> Section, StringRef SectionName,
                  unsigned Align, function_ref<Error(ArrayRef<uint8_t>)> Read) {
  size_t Off = 0;
  while (Off < Section.size()) {
    ArrayRef<uint8_t> Rest = Section.drop_front(Off);
    ArrayRef<uint8_t> Pad = Rest.take_front(Align);
    if (llvm::all_of(Pad, [](uint8_t C) { return C == 0; })) {
      Off += Pad.size();
      continue;
    }
    if (Error E = Read(Rest))
      return createStringError(inconvertibleErrorCode(),
                               "at offset " + Twine(Off) + " of section " +
                                   SectionName + ": " + toString(std::move(E)));
    BinaryPrefix P;
    std::memcpy(&P, Rest.data(), sizeof(P));
    assert(P.TotalSize > 0 && P.TotalSize <= Rest.size() &&
           "Read checked the size: the scan advances within the section");
    Off += P.TotalSize;
  }
  return Error::success();
}

} // namespace mstage
