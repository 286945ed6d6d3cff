//===- AotImageTest.cpp - Tests of the ahead-of-time image format ---------===//
//
// The header offsets are AotImage.cpp's layout, written out here again:
// magic[8], version, header size, total size, kind, kernel count, arch[16],
// kernels' hash, names' offset and size, payload's offset, size and hash.
//
//===----------------------------------------------------------------------===//
#include "formats/AotImage.h"

#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include "LittleEndian.h"

#include <cstring>

using namespace mstage;
using mstage::test::getLE;
using mstage::test::putLE;

namespace {

constexpr size_t VersionAt = 8, HeaderSizeAt = 12, TotalSizeAt = 16,
                 KindAt = 24, NumKernelsAt = 28, ArchAt = 32,
                 KernelsHashAt = 48, NamesOffsetAt = 56, NamesSizeAt = 64,
                 PayloadOffsetAt = 72, PayloadSizeAt = 80, PayloadHashAt = 88,
                 HeaderBytes = 96;

AotImage someImage() {
  AotImage I;
  I.Kind = AotKind::Cubin;
  I.Arch = "sm_90";
  I.KernelsHash = 0x1234;
  I.Kernels = {"_Z1av", "_Z1bv"};
  I.Payload = "\x7f"
              "ELF cubin bytes";
  return I;
}

std::string failureOf(const std::string &B) {
  auto R = readAotImage(reinterpret_cast<const uint8_t *>(B.data()), B.size());
  if (R)
    return "(accepted)";
  return llvm::toString(R.takeError());
}

TEST(AotImage, HeaderHasTheDocumentedLayout) {
  AotImage In = someImage();
  std::string B = writeAotImage(In);
  EXPECT_EQ(B.substr(0, 8), "MSTGAOT1");
  EXPECT_EQ(getLE(B, VersionAt, 4), 1u);
  EXPECT_EQ(getLE(B, HeaderSizeAt, 4), HeaderBytes);
  EXPECT_EQ(getLE(B, TotalSizeAt, 8), B.size());
  EXPECT_EQ(B.size() % AotImageAlign, 0u);
  EXPECT_EQ(getLE(B, KindAt, 4), 1u);
  EXPECT_EQ(getLE(B, NumKernelsAt, 4), 2u);
  EXPECT_STREQ(B.c_str() + ArchAt, "sm_90");
  EXPECT_EQ(getLE(B, KernelsHashAt, 8), 0x1234u);
  EXPECT_EQ(B.substr(getLE(B, NamesOffsetAt, 8), getLE(B, NamesSizeAt, 8)),
            std::string("_Z1av\0_Z1bv\0", 12));
  EXPECT_EQ(B.substr(getLE(B, PayloadOffsetAt, 8), getLE(B, PayloadSizeAt, 8)),
            In.Payload);
  EXPECT_EQ(getLE(B, PayloadHashAt, 8), llvm::xxh3_64bits(In.Payload));
}

TEST(AotImage, ReadsWhatItWrites) {
  AotImage In = someImage();
  std::string B = writeAotImage(In);
  auto Out =
      readAotImage(reinterpret_cast<const uint8_t *>(B.data()), B.size());
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Kind, AotKind::Cubin);
  EXPECT_EQ(Out->Arch, "sm_90");
  EXPECT_EQ(Out->KernelsHash, 0x1234u);
  EXPECT_EQ(Out->Kernels, In.Kernels);
  EXPECT_EQ(Out->Payload, In.Payload);
  // No kernels and no payload.
  AotImage Empty;
  Empty.Arch = "sm_50";
  std::string E = writeAotImage(Empty);
  auto R = readAotImage(reinterpret_cast<const uint8_t *>(E.data()), E.size());
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->Kernels.empty());
  EXPECT_TRUE(R->Payload.empty());
}

TEST(AotImage, Damage) {
  const std::string Good = writeAotImage(someImage());
  const std::string P = "corrupt mstage ahead-of-time image: ";
  auto Damaged = [&](size_t At, uint64_t V, unsigned Bytes) {
    std::string B = Good;
    putLE(B, At, V, Bytes);
    return failureOf(B);
  };
  EXPECT_EQ(Damaged(0, 'm', 1), P + "bad magic");
  EXPECT_EQ(Damaged(VersionAt, 2, 4),
            P + "version 2, this tool reads version 1; rebuild with this "
                "mstage++");
  EXPECT_EQ(Damaged(HeaderSizeAt, 80, 4), P + "header size 80, expected 96");
  EXPECT_EQ(Damaged(TotalSizeAt, Good.size() + 16, 8),
            P + "size " + std::to_string(Good.size() + 16) +
                " out of range (96 to " + std::to_string(Good.size()) +
                " bytes)");
  EXPECT_EQ(Damaged(KindAt, 2, 4), P + "unknown kind 2");
  EXPECT_EQ(Damaged(ArchAt, 'x', 1), P + "bad architecture");
  EXPECT_EQ(Damaged(ArchAt + 15, 'x', 1), P + "bad architecture");
  EXPECT_EQ(Damaged(NamesOffsetAt, ~uint64_t(0), 8),
            P + "names or payload out of range");
  EXPECT_EQ(Damaged(PayloadSizeAt, ~uint64_t(0) - 64, 8),
            P + "names or payload out of range");
  EXPECT_EQ(Damaged(NumKernelsAt, 3, 4),
            P + "kernel name 2 is empty or unterminated");
  EXPECT_EQ(Damaged(NumKernelsAt, 1, 4),
            P + "trailing bytes after the kernel names");
  std::string B = Good;
  B[getLE(B, PayloadOffsetAt, 8)] ^= 1;
  EXPECT_EQ(failureOf(B),
            P + "the cubin for sm_90 does not match its checksum");
  for (size_t N = 0; N < Good.size(); ++N)
    EXPECT_NE(failureOf(Good.substr(0, N)), "(accepted)") << N;
}

TEST(AotImage, Sections) {
  std::string A = writeAotImage(someImage());
  AotImage Ptx = someImage();
  Ptx.Kind = AotKind::Ptx;
  Ptx.Payload = ".version 8.0";
  std::string B = writeAotImage(Ptx);
  std::string Section = std::string(16, '\0') + A + std::string(32, '\0') + B;
  auto Images = readAotSection(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Section.data()), Section.size()));
  ASSERT_TRUE(bool(Images)) << llvm::toString(Images.takeError());
  ASSERT_EQ(Images->size(), 2u);
  EXPECT_EQ((*Images)[0].Kind, AotKind::Cubin);
  EXPECT_EQ((*Images)[1].Payload, ".version 8.0");
  std::string Bad = A + "junk";
  auto R = readAotSection(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bad.data()), Bad.size()));
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "at offset " + std::to_string(A.size()) +
                " of section mstage_aot: corrupt mstage ahead-of-time image: "
                "bad magic");
}

TEST(AotImage, KernelsHashIsXxh3OfTheBitcodeHashes) {
  uint64_t Hashes[] = {1, 2, 3};
  EXPECT_EQ(hashAotKernels(Hashes),
            llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
                reinterpret_cast<const uint8_t *>(Hashes), sizeof(Hashes))));
  uint64_t Swapped[] = {2, 1, 3};
  EXPECT_NE(hashAotKernels(Hashes), hashAotKernels(Swapped));
  EXPECT_EQ(hashAotKernels({}), llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>()));
}

TEST(AotImage, StagedParamSize) {
  // Site I at the sum of alignTo(size of site J, 16) over J < I.
  EXPECT_EQ(stagedParamSize(llvm::ArrayRef<uint32_t>()), 0u);
  uint32_t Sizes[] = {4, 16, 17, 0, 1};
  EXPECT_EQ(stagedParamSize(Sizes), 16u + 16 + 32 + 0 + 16);
  uint32_t Huge[] = {0xffffffffu, 0xffffffffu};
  EXPECT_EQ(stagedParamSize(Huge), 2 * (uint64_t(0xffffffffu) + 1));
  StageSite S;
  S.Size = 24;
  std::vector<StageSite> Sites(3, S);
  EXPECT_EQ(stagedParamSize(Sites), 96u);
}

TEST(AotImage, ArchNumber) {
  EXPECT_EQ(archNumber("sm_90"), 90u);
  EXPECT_EQ(archNumber("sm_90a"), 90u);
  EXPECT_EQ(archNumber("sm_100"), 100u);
  EXPECT_EQ(archNumber("sm_5"), 5u);
  for (const char *Bad : {"", "sm_", "compute_90", "SM_90", "sm_x90", "90"})
    EXPECT_EQ(archNumber(Bad), 0u) << Bad;
}

} // namespace
