//===- KernelBlobTest.cpp - Tests of the kernel blob reader and writer ----===//
//
// The header offsets below are the layout that KernelBlob.cpp documents and
// that test/inspect/Inputs/craft_blob.py and fuzz/KernelBlobFuzzer.cpp also
// write by hand. Damaged input must give an error, never a crash or a blob
// that reaches outside the bytes (fuzz/KernelBlobFuzzer.cpp searches for
// that at random; these are the cases named).
//
//===----------------------------------------------------------------------===//
#include "formats/KernelBlob.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include "LittleEndian.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mstage;
using mstage::test::getLE;
using mstage::test::putLE;

namespace {

constexpr size_t VersionAt = 8, HeaderSizeAt = 12, TotalSizeAt = 16,
                 HashAt = 24, BitcodeOffsetAt = 32, BitcodeSizeAt = 40,
                 NameOffsetAt = 48, NumParamsAt = 60, SitesOffsetAt = 64,
                 NumSitesAt = 68, SlotsOffsetAt = 72, NumSlotsAt = 76,
                 FlagsAt = 80, LoopDepthAt = 84, InstructionsAt = 88,
                 ThreadInstructionsAt = 96, StaticSharedAt = 104,
                 HeaderBytes = 112, SiteBytes = 32;

const char Bitcode[] = "BC\xc0\xde some bitcode, not parsed here";

KernelBlob someBlob() {
  KernelBlob B;
  B.Name = "_Z6kernelv";
  B.PrettyName = "main()::lambda@saxpy.cpp:9";
  B.Location = "saxpy.cpp:9:14";
  B.NumParams = 3;
  StageSite S;
  S.Kind = StageKind::Signed;
  S.Size = 4;
  S.Align = 4;
  S.Line = 12;
  S.Column = 7;
  S.Expression = "n * 2";
  S.TypeName = "int";
  B.StageSites.push_back(S);
  S.Kind = StageKind::Bytes;
  S.Size = 24;
  S.Align = 8;
  S.Expression = "";
  S.TypeName = "struct P";
  B.StageSites.push_back(S);
  B.PointerSlots = {{0, 8}, {2, 0}};
  B.Bitcode = llvm::StringRef(Bitcode, sizeof(Bitcode) - 1);
  B.BitcodeHash = hashBitcode(B.Bitcode);
  B.Work = {6040, 1.5e6, 2};
  return B;
}

llvm::Expected<KernelBlob> read(const std::string &B) {
  return readKernelBlob(reinterpret_cast<const uint8_t *>(B.data()), B.size());
}

// The error of reading B with Read, or "(accepted)".
template <class T>
std::string failureOf(const std::string &B,
                      llvm::Expected<T> (*Read)(const uint8_t *, size_t)) {
  llvm::Expected<T> R =
      Read(reinterpret_cast<const uint8_t *>(B.data()), B.size());
  if (R)
    return "(accepted)";
  return llvm::toString(R.takeError());
}

std::string failureOf(const std::string &B) {
  return failureOf(B, readKernelBlob);
}

// B with its Bytes-byte field at At set to V.
std::string damaged(std::string B, size_t At, uint64_t V, unsigned Bytes) {
  putLE(B, At, V, Bytes);
  return B;
}

llvm::ArrayRef<uint8_t> bytes(const std::string &S) {
  return {reinterpret_cast<const uint8_t *>(S.data()), S.size()};
}

void expectSame(const KernelBlob &A, const KernelBlob &B) {
  EXPECT_EQ(A.Name, B.Name);
  EXPECT_EQ(A.PrettyName, B.PrettyName);
  EXPECT_EQ(A.Location, B.Location);
  EXPECT_EQ(A.NumParams, B.NumParams);
  EXPECT_EQ(A.BitcodeHash, B.BitcodeHash);
  EXPECT_EQ(A.Bitcode, B.Bitcode);
  EXPECT_EQ(A.PointerSlots, B.PointerSlots);
  EXPECT_EQ(A.DebugAtO0, B.DebugAtO0);
  EXPECT_EQ(A.Work.Instructions, B.Work.Instructions);
  EXPECT_EQ(A.Work.ThreadInstructions, B.Work.ThreadInstructions);
  EXPECT_EQ(A.Work.LoopDepth, B.Work.LoopDepth);
  EXPECT_EQ(A.Traits.Synchronizes, B.Traits.Synchronizes);
  EXPECT_EQ(A.Traits.SyncsGrid, B.Traits.SyncsGrid);
  EXPECT_EQ(A.Traits.UsesDeviceState, B.Traits.UsesDeviceState);
  EXPECT_EQ(A.Traits.StaticSharedBytes, B.Traits.StaticSharedBytes);
  ASSERT_EQ(A.StageSites.size(), B.StageSites.size());
  for (size_t I = 0; I < A.StageSites.size(); ++I) {
    const StageSite &X = A.StageSites[I], &Y = B.StageSites[I];
    EXPECT_EQ(X.Kind, Y.Kind);
    EXPECT_EQ(X.Size, Y.Size);
    EXPECT_EQ(X.Align, Y.Align);
    EXPECT_EQ(X.Line, Y.Line);
    EXPECT_EQ(X.Column, Y.Column);
    EXPECT_EQ(X.Expression, Y.Expression);
    EXPECT_EQ(X.TypeName, Y.TypeName);
  }
}

TEST(KernelBlob, HeaderHasTheDocumentedLayout) {
  KernelBlob In = someBlob();
  std::string B = writeKernelBlob(In);
  EXPECT_EQ(B.substr(0, 8), "MSTGKRN1");
  EXPECT_EQ(getLE(B, VersionAt, 4), 6u);
  EXPECT_EQ(getLE(B, HeaderSizeAt, 4), HeaderBytes);
  EXPECT_EQ(getLE(B, TotalSizeAt, 8), B.size());
  EXPECT_EQ(B.size() % KernelBlobAlign, 0u);
  EXPECT_EQ(getLE(B, HashAt, 8), llvm::xxh3_64bits(In.Bitcode));
  EXPECT_EQ(B.substr(getLE(B, BitcodeOffsetAt, 8), getLE(B, BitcodeSizeAt, 8)),
            In.Bitcode);
  EXPECT_STREQ(B.c_str() + getLE(B, NameOffsetAt, 4), "_Z6kernelv");
  EXPECT_EQ(getLE(B, NumParamsAt, 4), 3u);
  EXPECT_EQ(getLE(B, SitesOffsetAt, 4), HeaderBytes);
  EXPECT_EQ(getLE(B, NumSitesAt, 4), 2u);
  EXPECT_EQ(getLE(B, SlotsOffsetAt, 4), HeaderBytes + 2 * SiteBytes);
  EXPECT_EQ(getLE(B, NumSlotsAt, 4), 2u);
  EXPECT_EQ(getLE(B, FlagsAt, 4), 2u); // Synchronizes, the default
  EXPECT_EQ(getLE(B, LoopDepthAt, 4), 2u);
  EXPECT_EQ(getLE(B, InstructionsAt, 8), 6040u);
  EXPECT_EQ(getLE(B, ThreadInstructionsAt, 8), llvm::bit_cast<uint64_t>(1.5e6));
  // The first site's record: kind, size, alignment, line, column.
  EXPECT_EQ(getLE(B, HeaderBytes, 4), uint32_t(StageKind::Signed));
  EXPECT_EQ(getLE(B, HeaderBytes + 4, 4), 4u);
  EXPECT_EQ(getLE(B, HeaderBytes + 12, 4), 12u);
  EXPECT_EQ(hashBitcode(In.Bitcode), llvm::xxh3_64bits(In.Bitcode));
}

TEST(KernelBlob, ReadsWhatItWrites) {
  KernelBlob In = someBlob();
  std::string B = writeKernelBlob(In);
  llvm::Expected<KernelBlob> Out = read(B);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  expectSame(In, *Out);
  // The bitcode is read in place.
  EXPECT_EQ(Out->Bitcode.data(), B.data() + getLE(B, BitcodeOffsetAt, 8));
}

TEST(KernelBlob, DebugFlag) {
  KernelBlob In = someBlob();
  In.DebugAtO0 = true;
  In.Traits.Synchronizes = false;
  std::string B = writeKernelBlob(In);
  EXPECT_EQ(getLE(B, FlagsAt, 4), 1u);
  llvm::Expected<KernelBlob> Out = read(B);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  expectSame(In, *Out);
  // A flag this reader does not know is damage, not something to ignore.
  EXPECT_EQ(failureOf(damaged(B, FlagsAt, 17, 4)),
            "corrupt mstage kernel blob: unknown flags 17");
}

TEST(KernelBlob, TraitFlags) {
  // Each trait is its own bit, and reads back alone.
  const struct {
    bool Synchronizes, SyncsGrid, UsesDeviceState;
    uint64_t Flags;
  } Cases[] = {{false, false, false, 0},
               {true, false, false, 2},
               {false, true, false, 4},
               {false, false, true, 8},
               {true, true, true, 14}};
  for (const auto &C : Cases) {
    KernelBlob In = someBlob();
    In.Traits = {C.Synchronizes, C.SyncsGrid, C.UsesDeviceState};
    std::string B = writeKernelBlob(In);
    EXPECT_EQ(getLE(B, FlagsAt, 4), C.Flags);
    llvm::Expected<KernelBlob> Out = read(B);
    ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
    expectSame(In, *Out);
  }
}

TEST(KernelBlob, StaticSharedBytes) {
  // The launch's check reads them from the blob; more than 32 bits of them
  // (never a kernel's: the limit is 48 KiB) read back saturated.
  for (uint64_t Bytes :
       {uint64_t(0), uint64_t(4096), uint64_t(49153), uint64_t(1) << 40}) {
    KernelBlob In = someBlob();
    In.Traits.StaticSharedBytes = Bytes;
    std::string B = writeKernelBlob(In);
    uint64_t Stored = std::min<uint64_t>(Bytes, UINT32_MAX);
    EXPECT_EQ(getLE(B, StaticSharedAt, 4), Stored);
    llvm::Expected<KernelBlob> Out = read(B);
    ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
    EXPECT_EQ(Out->Traits.StaticSharedBytes, Stored);
  }
}

TEST(KernelBlob, EmptyKernel) {
  KernelBlob In;
  In.Name = "k";
  In.BitcodeHash = llvm::xxh3_64bits(llvm::StringRef());
  std::string B = writeKernelBlob(In);
  EXPECT_EQ(B.size(), 128u); // the header and "k\0\0\0", padded to 16
  llvm::Expected<KernelBlob> Out = read(B);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  expectSame(In, *Out);
  EXPECT_TRUE(Out->Bitcode.empty());
}

TEST(KernelBlob, EveryTruncationIsAnError) {
  std::string B = writeKernelBlob(someBlob());
  for (size_t N = 0; N < B.size(); ++N) {
    // A copy of just N bytes, so that a read past them is a read past the
    // allocation.
    std::string Short = B.substr(0, N);
    std::string Why = failureOf(Short);
    EXPECT_EQ(Why.rfind("corrupt mstage kernel blob: ", 0), 0u) << N << Why;
  }
  EXPECT_EQ(failureOf(B.substr(0, HeaderBytes - 1)),
            "corrupt mstage kernel blob: bad magic");
  EXPECT_EQ(failureOf(B.substr(0, B.size() - 1)),
            "corrupt mstage kernel blob: size " + std::to_string(B.size()) +
                " out of range (112 to " + std::to_string(B.size() - 1) +
                " bytes)");
}

TEST(KernelBlob, NamedDamage) {
  const std::string Good = writeKernelBlob(someBlob());
  auto Damaged = [&](size_t At, uint64_t V, unsigned Bytes) {
    return failureOf(damaged(Good, At, V, Bytes));
  };
  const std::string P = "corrupt mstage kernel blob: ";
  EXPECT_EQ(Damaged(0, 'X', 1), P + "bad magic");
  EXPECT_EQ(Damaged(VersionAt, 1, 4),
            P + "version 1, this tool reads version 6; rebuild with this "
                "mstage++");
  EXPECT_EQ(Damaged(HeaderSizeAt, 96, 4), P + "header size 96, expected 112");
  EXPECT_EQ(Damaged(TotalSizeAt, 87, 8), P + "size 87 out of range (112 to " +
                                             std::to_string(Good.size()) +
                                             " bytes)");
  EXPECT_EQ(Damaged(TotalSizeAt, ~uint64_t(0), 8).rfind(P + "size 1844", 0),
            0u);
  // Offsets and counts whose sums overflow.
  EXPECT_EQ(Damaged(BitcodeOffsetAt, ~uint64_t(0), 8).rfind(P + "bitcode", 0),
            0u);
  EXPECT_EQ(Damaged(BitcodeSizeAt, ~uint64_t(0) - 8, 8).rfind(P + "bitcode", 0),
            0u);
  EXPECT_EQ(Damaged(NumSitesAt, 0xffffffff, 4),
            P + "stage-site table (offset 112, 4294967295 sites) out of range");
  EXPECT_EQ(Damaged(NumSlotsAt, MaxPointerSlots + 1, 4),
            P + "pointer-slot table (offset 176, 4097 slots) out of range");
  EXPECT_EQ(Damaged(NameOffsetAt, Good.size(), 4),
            P + "string offset " + std::to_string(Good.size()) +
                " out of range");
  // A weight the policy cannot compare with.
  EXPECT_EQ(
      Damaged(ThreadInstructionsAt, llvm::bit_cast<uint64_t>(std::nan("")), 8),
      P + "the weight of '_Z6kernelv' is nan instructions a thread");
  EXPECT_EQ(
      Damaged(ThreadInstructionsAt, llvm::bit_cast<uint64_t>(-1.0), 8),
      P + "the weight of '_Z6kernelv' is -1.000000 instructions a thread");
  // A site of an unknown kind, of an alignment that is no power of two,
  // larger than the largest staged value.
  EXPECT_EQ(Damaged(HeaderBytes, 5, 4),
            P + "stage site 0 has kind 5, size 4 and alignment 4");
  EXPECT_EQ(Damaged(HeaderBytes + 8, 3, 4),
            P + "stage site 0 has kind 1, size 4 and alignment 3");
  EXPECT_EQ(Damaged(HeaderBytes + 8, 0, 4),
            P + "stage site 0 has kind 1, size 4 and alignment 0");
  EXPECT_EQ(Damaged(HeaderBytes + SiteBytes + 4, MaxStageValueSize + 1, 4),
            P + "stage site 1 has kind 0, size 1048577 and alignment 8");
  // Slots out of order, or naming a parameter past NumParams.
  size_t Slots = HeaderBytes + 2 * SiteBytes;
  const std::string Slot =
      P + "the pointer slots of '_Z6kernelv' are out of order or name a "
          "parameter the kernel does not have";
  EXPECT_EQ(Damaged(Slots, 3, 4), Slot);
  EXPECT_EQ(Damaged(NumParamsAt, 2, 4), Slot);
  EXPECT_EQ(Damaged(Slots + 12, 0xfffffffa, 4), Slot); // offset + 8 wraps
  // The bitcode is checked against its hash.
  std::string B = Good;
  B[getLE(B, BitcodeOffsetAt, 8) + 3] ^= 1;
  EXPECT_EQ(failureOf(B), P + "the bitcode of '_Z6kernelv' does not match its "
                              "hash; rebuild the file");
}

TEST(KernelBlob, UnterminatedAndEmptyNames) {
  KernelBlob In = someBlob();
  In.Bitcode = "";
  In.BitcodeHash = hashBitcode("");
  std::string B = writeKernelBlob(In);
  // Fill everything from the name on with non-zero bytes.
  size_t NameAt = getLE(B, NameOffsetAt, 4);
  std::string Filled = B;
  for (size_t I = NameAt; I < Filled.size(); ++I)
    Filled[I] = 'x';
  EXPECT_EQ(failureOf(Filled), "corrupt mstage kernel blob: unterminated "
                               "string at offset " +
                                   std::to_string(NameAt));
  std::string NoName = B;
  NoName[NameAt] = '\0';
  EXPECT_EQ(failureOf(NoName), "corrupt mstage kernel blob: the kernel has no "
                               "name");
}

// Each byte of a blob flipped, and its bitcode hash made right again (as the
// fuzzer's mutator does, to get past that check): the reader gives an error
// or a blob inside the bytes.
TEST(KernelBlob, EveryFlippedByteIsReadSafely) {
  const std::string Good = writeKernelBlob(someBlob());
  unsigned Errors = 0;
  for (size_t At = 0; At < Good.size(); ++At) {
    for (uint8_t Flip : {0x01, 0x80, 0xff}) {
      std::string B = Good;
      B[At] ^= Flip;
      uint64_t Off = getLE(B, BitcodeOffsetAt, 8),
               Size = getLE(B, BitcodeSizeAt, 8);
      if (Off <= B.size() && Size <= B.size() - Off)
        putLE(B, HashAt, hashBitcode(llvm::StringRef(B).substr(Off, Size)), 8);
      std::string Copy = B; // exactly B.size() bytes
      llvm::Expected<KernelBlob> R = read(Copy);
      if (!R) {
        llvm::consumeError(R.takeError());
        ++Errors;
        continue;
      }
      auto *Begin = Copy.data(), *End = Copy.data() + Copy.size();
      EXPECT_TRUE(R->Bitcode.empty() ||
                  (R->Bitcode.data() >= Begin &&
                   R->Bitcode.data() + R->Bitcode.size() <= End))
          << At;
      for (const StageSite &S : R->StageSites)
        EXPECT_LE(S.Size, MaxStageValueSize);
    }
  }
  EXPECT_GT(Errors, 0u);
}

TEST(KernelBlob, Sections) {
  std::string A = writeKernelBlob(someBlob());
  KernelBlob Other = someBlob();
  Other.Name = "_Z5otherv";
  Other.StageSites.clear();
  std::string C = writeKernelBlob(Other);
  // Two objects' parts, the second padded by the linker; the same blob twice.
  std::string Section =
      A + std::string(32, '\0') + C + A + std::string(16, '\0');
  llvm::Expected<std::vector<KernelBlob>> Blobs =
      readKernelSection(bytes(Section));
  ASSERT_TRUE(bool(Blobs)) << llvm::toString(Blobs.takeError());
  ASSERT_EQ(Blobs->size(), 3u);
  EXPECT_EQ((*Blobs)[0].Name, "_Z6kernelv");
  EXPECT_EQ((*Blobs)[1].Name, "_Z5otherv");
  expectSame((*Blobs)[0], (*Blobs)[2]);
  EXPECT_NE((*Blobs)[0].Bitcode.data(), (*Blobs)[2].Bitcode.data());
  // Empty, or all padding.
  llvm::Expected<std::vector<KernelBlob>> None = readKernelSection({});
  ASSERT_TRUE(bool(None));
  EXPECT_TRUE(None->empty());
  None = readKernelSection(bytes(std::string(48, '\0')));
  ASSERT_TRUE(bool(None));
  EXPECT_TRUE(None->empty());
  // Garbage after the first blob names its offset.
  llvm::Expected<std::vector<KernelBlob>> Bad =
      readKernelSection(bytes(A + "garbage"));
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "at offset " + std::to_string(A.size()) +
                " of section mstage_kernels: corrupt mstage kernel blob: bad "
                "magic");
}

TEST(DeviceLinkBlob, ReadsWhatItWritesAndRefusesDamage) {
  DeviceLinkBlob In;
  In.Source = "lib.cpp";
  In.Exports = {{"_Z3addff", "float (float, float)", 42}};
  In.Imports = {
      {"_Z6kernelv", false, "_Z3mulff", "float (float, float)", "main.cpp:3:5"},
      {"_Z3addff", true, "_Z3subff", "float (float, float)", ""}};
  In.Bitcode = llvm::StringRef(Bitcode, sizeof(Bitcode) - 1);
  In.BitcodeHash = hashBitcode(In.Bitcode);
  std::string B = writeDeviceLinkBlob(In);
  EXPECT_EQ(B.substr(0, 8), "MSTGLNK1");
  EXPECT_EQ(getLE(B, TotalSizeAt, 8), B.size());
  auto *Data = reinterpret_cast<const uint8_t *>(B.data());
  llvm::Expected<DeviceLinkBlob> Out = readDeviceLinkBlob(Data, B.size());
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Source, "lib.cpp");
  ASSERT_EQ(Out->Exports.size(), 1u);
  EXPECT_EQ(Out->Exports[0].Type, "float (float, float)");
  EXPECT_EQ(Out->Exports[0].Hash, 42u);
  ASSERT_EQ(Out->Imports.size(), 2u);
  EXPECT_TRUE(Out->Imports[1].FromExport);
  EXPECT_EQ(Out->Imports[0].Location, "main.cpp:3:5");
  EXPECT_EQ(Out->Bitcode, In.Bitcode);
  // A kernel blob is not link data, nor the other way round.
  std::string K = writeKernelBlob(someBlob());
  llvm::Expected<DeviceLinkBlob> Wrong =
      readDeviceLinkBlob(reinterpret_cast<const uint8_t *>(K.data()), K.size());
  ASSERT_FALSE(bool(Wrong));
  EXPECT_EQ(llvm::toString(Wrong.takeError()),
            "corrupt mstage device link data: bad magic");
  EXPECT_EQ(failureOf(B), "corrupt mstage kernel blob: bad magic");
  // The prefix's checks, as the other formats' (formats/BinaryFormat.h).
  auto Damaged = [&](size_t At, uint64_t V, unsigned Bytes) {
    return failureOf(damaged(B, At, V, Bytes), readDeviceLinkBlob);
  };
  const std::string P = "corrupt mstage device link data: ";
  EXPECT_EQ(Damaged(VersionAt, 7, 4),
            P + "version 7, this tool reads version 1; rebuild with this "
                "mstage++");
  EXPECT_EQ(Damaged(HeaderSizeAt, 80, 4), P + "header size 80, expected 72");
  EXPECT_EQ(Damaged(TotalSizeAt, 71, 8), P + "size 71 out of range (72 to " +
                                             std::to_string(B.size()) +
                                             " bytes)");
  for (size_t N = 0; N < B.size(); ++N) {
    std::string Short = B.substr(0, N);
    llvm::Expected<DeviceLinkBlob> R = readDeviceLinkBlob(
        reinterpret_cast<const uint8_t *>(Short.data()), Short.size());
    EXPECT_FALSE(bool(R)) << N;
    if (!R)
      llvm::consumeError(R.takeError());
  }
  // The section: the blob twice, each padded.
  llvm::Expected<std::vector<llvm::ArrayRef<uint8_t>>> Parts =
      readDeviceLinkSection(bytes(B + std::string(16, '\0') + B));
  ASSERT_TRUE(bool(Parts)) << llvm::toString(Parts.takeError());
  ASSERT_EQ(Parts->size(), 2u);
  EXPECT_EQ((*Parts)[0].size(), B.size());
  EXPECT_EQ((*Parts)[1].data(), (*Parts)[0].data() + B.size() + 16);
}

} // namespace
