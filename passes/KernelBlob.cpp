//===- KernelBlob.cpp - The embedded form of one extracted kernel ---------===//
#include "KernelBlob.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;

namespace mstage {
namespace {

// Header layout: all fields little-endian, offsets relative to the blob.
struct Header {
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderSize;
  uint64_t TotalSize;
  uint64_t BitcodeHash;
  uint64_t BitcodeOffset;
  uint64_t BitcodeSize;
  uint32_t NameOffset;
  uint32_t PrettyNameOffset;
  uint32_t LocationOffset;
  uint32_t NumParams;
  uint32_t StageSitesOffset;
  uint32_t NumStageSites;
};

struct SiteRecord {
  uint32_t Kind, Size, Align, Line, Column, ExpressionOffset, TypeNameOffset,
      Reserved;
};

class Writer {
public:
  uint32_t addString(StringRef S) {
    uint32_t Off = Strings.size();
    Strings.append(S.begin(), S.end());
    Strings.push_back('\0');
    return Off;
  }
  std::string Strings;
};

} // namespace

uint64_t hashBitcode(StringRef Bitcode) { return xxh3_64bits(Bitcode); }

std::string writeKernelBlob(const KernelBlob &Blob) {
  Writer W;
  uint32_t NameOff = W.addString(Blob.Name);
  uint32_t PrettyOff = W.addString(Blob.PrettyName);
  uint32_t LocOff = W.addString(Blob.Location);
  std::vector<SiteRecord> Sites;
  for (const StageSite &S : Blob.StageSites)
    Sites.push_back({static_cast<uint32_t>(S.Kind), S.Size, S.Align, S.Line,
                     S.Column, W.addString(S.Expression),
                     W.addString(S.TypeName), 0});

  // [Header][SiteRecords][Strings][pad][Bitcode][pad]
  uint64_t SitesOff = sizeof(Header);
  uint64_t StringsOff = SitesOff + Sites.size() * sizeof(SiteRecord);
  uint64_t BitcodeOff = alignTo(StringsOff + W.Strings.size(), 8);
  uint64_t Total = alignTo(BitcodeOff + Blob.Bitcode.size(), KernelBlobAlign);

  Header H;
  std::memcpy(H.Magic, KernelBlobMagic, sizeof(H.Magic));
  H.Version = KernelBlobVersion;
  H.HeaderSize = sizeof(Header);
  H.TotalSize = Total;
  H.BitcodeHash = hashBitcode(Blob.Bitcode);
  H.BitcodeOffset = BitcodeOff;
  H.BitcodeSize = Blob.Bitcode.size();
  H.NameOffset = StringsOff + NameOff;
  H.PrettyNameOffset = StringsOff + PrettyOff;
  H.LocationOffset = StringsOff + LocOff;
  H.NumParams = Blob.NumParams;
  H.StageSitesOffset = SitesOff;
  H.NumStageSites = Sites.size();
  for (SiteRecord &R : Sites) {
    R.ExpressionOffset += StringsOff;
    R.TypeNameOffset += StringsOff;
  }

  std::string Out(Total, '\0');
  std::memcpy(&Out[0], &H, sizeof(H));
  if (!Sites.empty())
    std::memcpy(&Out[SitesOff], Sites.data(),
                Sites.size() * sizeof(SiteRecord));
  std::memcpy(&Out[StringsOff], W.Strings.data(), W.Strings.size());
  if (!Blob.Bitcode.empty())
    std::memcpy(&Out[BitcodeOff], Blob.Bitcode.data(), Blob.Bitcode.size());
  return Out;
}

uint64_t kernelBlobSize(const uint8_t *Data, size_t MaxSize) {
  if (MaxSize < sizeof(Header) ||
      std::memcmp(Data, KernelBlobMagic, sizeof(KernelBlobMagic)) != 0)
    return 0;
  Header H;
  std::memcpy(&H, Data, sizeof(H));
  return H.TotalSize <= MaxSize ? H.TotalSize : 0;
}

Expected<KernelBlob> readKernelBlob(const uint8_t *Data, size_t MaxSize) {
  auto Bad = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "corrupt mstage kernel blob: " + Why);
  };
  if (MaxSize < sizeof(Header) ||
      std::memcmp(Data, KernelBlobMagic, sizeof(KernelBlobMagic)) != 0)
    return Bad("bad magic");
  Header H;
  std::memcpy(&H, Data, sizeof(H));
  if (H.Version != KernelBlobVersion)
    return Bad("version " + Twine(H.Version) + ", this tool reads version " +
               Twine(KernelBlobVersion) + "; rebuild with this mstage++");
  if (H.HeaderSize != sizeof(Header) || H.TotalSize > MaxSize ||
      H.BitcodeOffset + H.BitcodeSize > H.TotalSize ||
      H.StageSitesOffset + uint64_t(H.NumStageSites) * sizeof(SiteRecord) >
          H.TotalSize)
    return Bad("sizes out of range");
  auto Str = [&](uint64_t Off) -> Expected<std::string> {
    if (Off >= H.TotalSize)
      return Bad("string offset out of range");
    const char *S = reinterpret_cast<const char *>(Data + Off);
    size_t Len = strnlen(S, H.TotalSize - Off);
    if (Off + Len >= H.TotalSize)
      return Bad("unterminated string");
    return std::string(S, Len);
  };

  KernelBlob B;
  for (auto [Field, Off] : {std::pair{&B.Name, H.NameOffset},
                            std::pair{&B.PrettyName, H.PrettyNameOffset},
                            std::pair{&B.Location, H.LocationOffset}}) {
    auto S = Str(Off);
    if (!S)
      return S.takeError();
    *Field = std::move(*S);
  }
  B.NumParams = H.NumParams;
  B.BitcodeHash = H.BitcodeHash;
  for (uint32_t I = 0; I < H.NumStageSites; ++I) {
    SiteRecord R;
    std::memcpy(&R, Data + H.StageSitesOffset + I * sizeof(SiteRecord),
                sizeof(R));
    StageSite S;
    S.Kind = static_cast<StageKind>(R.Kind);
    S.Size = R.Size;
    S.Align = R.Align;
    S.Line = R.Line;
    S.Column = R.Column;
    auto E = Str(R.ExpressionOffset);
    if (!E)
      return E.takeError();
    auto T = Str(R.TypeNameOffset);
    if (!T)
      return T.takeError();
    S.Expression = std::move(*E);
    S.TypeName = std::move(*T);
    B.StageSites.push_back(std::move(S));
  }
  B.Bitcode = StringRef(reinterpret_cast<const char *>(Data + H.BitcodeOffset),
                        H.BitcodeSize);
  return B;
}

} // namespace mstage
