//===- KernelBlob.cpp - The embedded form of one extracted kernel ---------===//
#include "formats/KernelBlob.h"
#include "formats/BinaryFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace mstage {
namespace {

// Header layout: all fields little-endian, offsets relative to the blob.
struct Header {
  BinaryPrefix Prefix;
  uint64_t BitcodeHash;
  uint64_t BitcodeOffset;
  uint64_t BitcodeSize;
  uint32_t NameOffset;
  uint32_t PrettyNameOffset;
  uint32_t LocationOffset;
  uint32_t NumParams;
  uint32_t StageSitesOffset;
  uint32_t NumStageSites;
  uint32_t PointerSlotsOffset; // PointerSlot records: {Param, Offset}
  uint32_t NumPointerSlots;
  uint32_t Flags;     // BlobFlag bits
  uint32_t LoopDepth; // KernelWork's, as the two below (version 4)
  uint64_t Instructions;
  double ThreadInstructions;
  uint32_t StaticSharedBytes; // KernelTraits' (version 6), saturated
  uint32_t Reserved;          // zero
};

// test/inspect/Inputs/craft_blob.py and fuzz/KernelBlobFuzzer.cpp know
// this layout.
static_assert(sizeof(Header) == 112, "the kernel blob header changed");

enum BlobFlag : uint32_t {
  DebugAtO0Flag = 1,
  // KernelTraits (version 5).
  SynchronizesFlag = 2,
  SyncsGridFlag = 4,
  UsesDeviceStateFlag = 8,
  KnownFlags = 15
};

constexpr BinaryFormat BlobFormat = {KernelBlobMagic, KernelBlobVersion,
                                     sizeof(Header), "kernel blob"};

struct SiteRecord {
  uint32_t Kind, Size, Align, Line, Column, ExpressionOffset, TypeNameOffset,
      Reserved;
};

} // namespace

uint64_t hashBitcode(StringRef Bitcode) { return xxh3_64bits(Bitcode); }

std::string writeKernelBlob(const KernelBlob &Blob) {
  StringTable W;
  uint32_t NameOff = W.add(Blob.Name);
  uint32_t PrettyOff = W.add(Blob.PrettyName);
  uint32_t LocOff = W.add(Blob.Location);
  std::vector<SiteRecord> Sites;
  for (const StageSite &S : Blob.StageSites)
    Sites.push_back({static_cast<uint32_t>(S.Kind), S.Size, S.Align, S.Line,
                     S.Column, W.add(S.Expression), W.add(S.TypeName), 0});

  // [Header][SiteRecords][PointerSlots][Strings][pad][Bitcode][pad]
  static_assert(sizeof(PointerSlot) == 8, "a pointer slot is two uint32_t");
  uint64_t SitesOff = sizeof(Header);
  uint64_t SlotsOff = SitesOff + Sites.size() * sizeof(SiteRecord);
  uint64_t StringsOff =
      SlotsOff + Blob.PointerSlots.size() * sizeof(PointerSlot);
  uint64_t BitcodeOff = alignTo(StringsOff + W.Strings.size(), 8);
  uint64_t Total = alignTo(BitcodeOff + Blob.Bitcode.size(), KernelBlobAlign);
  assert(StringsOff + W.Strings.size() <= UINT32_MAX &&
         "the strings' 32-bit offsets reach them");

  Header H;
  H.Prefix = makePrefix(BlobFormat, Total);
  H.BitcodeHash = hashBitcode(Blob.Bitcode);
  H.BitcodeOffset = BitcodeOff;
  H.BitcodeSize = Blob.Bitcode.size();
  H.NameOffset = StringsOff + NameOff;
  H.PrettyNameOffset = StringsOff + PrettyOff;
  H.LocationOffset = StringsOff + LocOff;
  H.NumParams = Blob.NumParams;
  H.StageSitesOffset = SitesOff;
  H.NumStageSites = Sites.size();
  H.PointerSlotsOffset = SlotsOff;
  H.NumPointerSlots = Blob.PointerSlots.size();
  H.Flags = (Blob.DebugAtO0 ? DebugAtO0Flag : 0) |
            (Blob.Traits.Synchronizes ? SynchronizesFlag : 0) |
            (Blob.Traits.SyncsGrid ? SyncsGridFlag : 0) |
            (Blob.Traits.UsesDeviceState ? UsesDeviceStateFlag : 0);
  H.LoopDepth = Blob.Work.LoopDepth;
  H.Instructions = Blob.Work.Instructions;
  H.ThreadInstructions = Blob.Work.ThreadInstructions;
  H.StaticSharedBytes =
      uint32_t(std::min<uint64_t>(Blob.Traits.StaticSharedBytes, UINT32_MAX));
  H.Reserved = 0;
  for (SiteRecord &R : Sites) {
    R.ExpressionOffset += StringsOff;
    R.TypeNameOffset += StringsOff;
  }

  std::string Out(Total, '\0');
  place(Out, 0, &H, sizeof(H));
  place(Out, SitesOff, ArrayRef(Sites));
  place(Out, SlotsOff, ArrayRef(Blob.PointerSlots));
  place(Out, StringsOff, W.Strings.data(), W.Strings.size());
  place(Out, BitcodeOff, Blob.Bitcode.data(), Blob.Bitcode.size());
  return Out;
}

namespace {

Error bad(const Twine &Why) { return corrupt(BlobFormat, Why); }

// The bitcode at Off, which fits the blob; false when it does not match
// Hash. The bitcode reader trusts its input: damage must be caught here.
bool bitcodeAt(const uint8_t *Data, uint64_t Off, uint64_t Size, uint64_t Hash,
               StringRef &Bitcode) {
  Bitcode = StringRef(reinterpret_cast<const char *>(Data + Off), Size);
  return hashBitcode(Bitcode) == Hash;
}

bool isKnownKind(uint32_t Kind) {
  return Kind <= static_cast<uint32_t>(StageKind::Bool);
}

} // namespace

Expected<KernelBlob> readKernelBlob(const uint8_t *Data, size_t MaxSize) {
  Header H;
  if (Error E = readHeader(BlobFormat, Data, MaxSize, H))
    return std::move(E);
  const uint64_t Total = H.Prefix.TotalSize;
  if (!fits(H.BitcodeOffset, H.BitcodeSize, Total))
    return bad("bitcode (offset " + Twine(H.BitcodeOffset) + ", " +
               Twine(H.BitcodeSize) + " bytes) out of range");
  if (!fits(H.StageSitesOffset, uint64_t(H.NumStageSites) * sizeof(SiteRecord),
            Total))
    return bad("stage-site table (offset " + Twine(H.StageSitesOffset) + ", " +
               Twine(H.NumStageSites) + " sites) out of range");
  if (H.NumPointerSlots > MaxPointerSlots ||
      !fits(H.PointerSlotsOffset,
            uint64_t(H.NumPointerSlots) * sizeof(PointerSlot), Total))
    return bad("pointer-slot table (offset " + Twine(H.PointerSlotsOffset) +
               ", " + Twine(H.NumPointerSlots) + " slots) out of range");
  auto Str = [&](uint64_t Off) {
    return readString(BlobFormat, Data, Total, Off);
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
  if (B.Name.empty())
    return bad("the kernel has no name");
  if (H.Flags & ~uint32_t(KnownFlags))
    return bad("unknown flags " + Twine(H.Flags));
  B.NumParams = H.NumParams;
  B.BitcodeHash = H.BitcodeHash;
  B.DebugAtO0 = H.Flags & DebugAtO0Flag;
  B.Traits.Synchronizes = H.Flags & SynchronizesFlag;
  B.Traits.SyncsGrid = H.Flags & SyncsGridFlag;
  B.Traits.UsesDeviceState = H.Flags & UsesDeviceStateFlag;
  B.Traits.StaticSharedBytes = H.StaticSharedBytes;
  // The policy divides and compares with it: NaN or a negative is damage.
  if (!(H.ThreadInstructions >= 0) || std::isinf(H.ThreadInstructions))
    return bad("the weight of '" + B.Name + "' is " +
               std::to_string(H.ThreadInstructions) + " instructions a thread");
  B.Work = {H.Instructions, H.ThreadInstructions, H.LoopDepth};
  for (uint32_t I = 0; I < H.NumStageSites; ++I) {
    auto R = recordAt<SiteRecord>(Data, H.StageSitesOffset, I);
    if (!isKnownKind(R.Kind) || R.Size > MaxStageValueSize || R.Align == 0 ||
        !isPowerOf2_32(R.Align) || R.Align > KernelBlobMaxAlign)
      return bad("stage site " + Twine(I) + " has kind " + Twine(R.Kind) +
                 ", size " + Twine(R.Size) + " and alignment " +
                 Twine(R.Align));
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
  B.PointerSlots.resize(H.NumPointerSlots);
  if (H.NumPointerSlots)
    std::memcpy(B.PointerSlots.data(), Data + H.PointerSlotsOffset,
                H.NumPointerSlots * sizeof(PointerSlot));
  // The runtime looks slots up by binary search and reads 8 bytes at each.
  if (!llvm::is_sorted(B.PointerSlots) ||
      llvm::any_of(B.PointerSlots, [&](const PointerSlot &S) {
        return S.Param >= B.NumParams || S.Offset > UINT32_MAX - 8;
      }))
    return bad("the pointer slots of '" + B.Name +
               "' are out of order or "
               "name a parameter the kernel does not have");
  if (!bitcodeAt(Data, H.BitcodeOffset, H.BitcodeSize, H.BitcodeHash,
                 B.Bitcode))
    return bad("the bitcode of '" + B.Name +
               "' does not match its hash; rebuild the file");
  return B;
}

Expected<std::vector<KernelBlob>> readKernelSection(ArrayRef<uint8_t> Section) {
  return readSection(Section, KernelBlobSection, KernelBlobAlign,
                     readKernelBlob);
}

//===----------------------------------------------------------------------===//
// Device link data
//===----------------------------------------------------------------------===//

namespace {

struct LinkHeader {
  BinaryPrefix Prefix;
  uint64_t BitcodeHash;
  uint64_t BitcodeOffset;
  uint64_t BitcodeSize;
  uint32_t SourceOffset;
  uint32_t ExportsOffset; // ExportRecords
  uint32_t NumExports;
  uint32_t ImportsOffset; // ImportRecords
  uint32_t NumImports;
  uint32_t Reserved;
};
static_assert(sizeof(LinkHeader) == 72, "the device link header changed");

constexpr BinaryFormat LinkFormat = {DeviceLinkMagic, DeviceLinkVersion,
                                     sizeof(LinkHeader), "device link data"};

struct ExportRecord {
  uint32_t NameOffset, TypeOffset;
  uint64_t Hash;
};

struct ImportRecord {
  uint32_t RequesterOffset, FromExport, NameOffset, TypeOffset, LocationOffset,
      Reserved;
};

Error badLink(const Twine &Why) { return corrupt(LinkFormat, Why); }

} // namespace

std::string writeDeviceLinkBlob(const DeviceLinkBlob &Blob) {
  StringTable W;
  uint32_t SourceOff = W.add(Blob.Source);
  std::vector<ExportRecord> Exports;
  for (const DeviceExport &E : Blob.Exports)
    Exports.push_back({W.add(E.Name), W.add(E.Type), E.Hash});
  std::vector<ImportRecord> Imports;
  for (const DeviceImport &I : Blob.Imports)
    Imports.push_back({W.add(I.Requester), I.FromExport, W.add(I.Name),
                       W.add(I.Type), W.add(I.Location), 0});

  // [Header][ExportRecords][ImportRecords][Strings][pad][Bitcode][pad]
  uint64_t ExportsOff = sizeof(LinkHeader);
  uint64_t ImportsOff = ExportsOff + Exports.size() * sizeof(ExportRecord);
  uint64_t StringsOff = ImportsOff + Imports.size() * sizeof(ImportRecord);
  uint64_t BitcodeOff = alignTo(StringsOff + W.Strings.size(), 8);
  uint64_t Total = alignTo(BitcodeOff + Blob.Bitcode.size(), KernelBlobAlign);
  for (ExportRecord &R : Exports) {
    R.NameOffset += StringsOff;
    R.TypeOffset += StringsOff;
  }
  for (ImportRecord &R : Imports) {
    R.RequesterOffset += StringsOff;
    R.NameOffset += StringsOff;
    R.TypeOffset += StringsOff;
    R.LocationOffset += StringsOff;
  }

  LinkHeader H;
  H.Prefix = makePrefix(LinkFormat, Total);
  H.BitcodeHash = hashBitcode(Blob.Bitcode);
  H.BitcodeOffset = BitcodeOff;
  H.BitcodeSize = Blob.Bitcode.size();
  H.SourceOffset = StringsOff + SourceOff;
  H.ExportsOffset = ExportsOff;
  H.NumExports = Exports.size();
  H.ImportsOffset = ImportsOff;
  H.NumImports = Imports.size();
  H.Reserved = 0;

  std::string Out(Total, '\0');
  place(Out, 0, &H, sizeof(H));
  place(Out, ExportsOff, ArrayRef(Exports));
  place(Out, ImportsOff, ArrayRef(Imports));
  place(Out, StringsOff, W.Strings.data(), W.Strings.size());
  place(Out, BitcodeOff, Blob.Bitcode.data(), Blob.Bitcode.size());
  return Out;
}

Expected<DeviceLinkBlob> readDeviceLinkBlob(const uint8_t *Data,
                                            size_t MaxSize) {
  LinkHeader H;
  if (Error E = readHeader(LinkFormat, Data, MaxSize, H))
    return std::move(E);
  const uint64_t Total = H.Prefix.TotalSize;
  if (!fits(H.BitcodeOffset, H.BitcodeSize, Total))
    return badLink("bitcode out of range");
  if (H.NumExports > MaxDeviceLinkEntries ||
      !fits(H.ExportsOffset, uint64_t(H.NumExports) * sizeof(ExportRecord),
            Total))
    return badLink("export table out of range");
  if (H.NumImports > MaxDeviceLinkEntries ||
      !fits(H.ImportsOffset, uint64_t(H.NumImports) * sizeof(ImportRecord),
            Total))
    return badLink("import table out of range");
  auto Str = [&](uint64_t Off, std::string &Out) -> Error {
    Expected<std::string> S = readString(LinkFormat, Data, Total, Off);
    if (!S)
      return S.takeError();
    Out = std::move(*S);
    return Error::success();
  };

  DeviceLinkBlob B;
  if (Error E = Str(H.SourceOffset, B.Source))
    return std::move(E);
  for (uint32_t I = 0; I < H.NumExports; ++I) {
    auto R = recordAt<ExportRecord>(Data, H.ExportsOffset, I);
    DeviceExport &E = B.Exports.emplace_back();
    E.Hash = R.Hash;
    if (Error Err = Str(R.NameOffset, E.Name))
      return std::move(Err);
    if (Error Err = Str(R.TypeOffset, E.Type))
      return std::move(Err);
  }
  for (uint32_t I = 0; I < H.NumImports; ++I) {
    auto R = recordAt<ImportRecord>(Data, H.ImportsOffset, I);
    DeviceImport &Imp = B.Imports.emplace_back();
    Imp.FromExport = R.FromExport != 0;
    for (auto [Off, Field] : {std::pair{R.RequesterOffset, &Imp.Requester},
                              std::pair{R.NameOffset, &Imp.Name},
                              std::pair{R.TypeOffset, &Imp.Type},
                              std::pair{R.LocationOffset, &Imp.Location}})
      if (Error Err = Str(Off, *Field))
        return std::move(Err);
  }
  B.BitcodeHash = H.BitcodeHash;
  if (!bitcodeAt(Data, H.BitcodeOffset, H.BitcodeSize, H.BitcodeHash,
                 B.Bitcode))
    return badLink("the exported bitcode of " + B.Source +
                   " does not match its hash; rebuild the file");
  return B;
}

Expected<std::vector<ArrayRef<uint8_t>>>
readDeviceLinkSection(ArrayRef<uint8_t> Section) {
  std::vector<ArrayRef<uint8_t>> Blobs;
  if (Error E = scanSection(Section, DeviceLinkSection, KernelBlobAlign,
                            [&](ArrayRef<uint8_t> Rest) -> Error {
                              Expected<DeviceLinkBlob> Blob =
                                  readDeviceLinkBlob(Rest.data(), Rest.size());
                              if (!Blob)
                                return Blob.takeError();
                              BinaryPrefix P;
                              std::memcpy(&P, Rest.data(), sizeof(P));
                              Blobs.push_back(Rest.take_front(P.TotalSize));
                              return Error::success();
                            }))
    return std::move(E);
  return Blobs;
}

} // namespace mstage
