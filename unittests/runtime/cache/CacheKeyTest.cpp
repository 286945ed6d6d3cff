//===- CacheKeyTest.cpp - Tests of the cache key --------------------------===//
//
// The key must change with every input that changes the code, and with
// nothing else; fields must not run into each other.
//
//===----------------------------------------------------------------------===//
#include "cache/CacheKey.h"

#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <cctype>
#include <set>
#include <string>

using namespace mstage::rt;

namespace {

KeyInputs someInputs() {
  KeyInputs In;
  In.BitcodeHashLo = 0x0123456789abcdefull;
  In.BitcodeHashHi = 0xfedcba9876543210ull;
  In.Config = {{64, 2, 1}, {256, 1, 1}, 1024, 0};
  In.StagedBytes = llvm::StringRef("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  In.FactBytes = "facts";
  In.Target = "sm_90";
  In.JitOptionsText = "llvm-args=";
  return In;
}

TEST(CacheKey, SameInputsSameKey) {
  KeyInputs A = someInputs(), B = someInputs();
  // Equal contents at other addresses.
  std::string Staged = A.StagedBytes.str();
  B.StagedBytes = Staged;
  EXPECT_EQ(makeCacheKey(A), makeCacheKey(B)); // operator==
  EXPECT_EQ(makeCacheKey(A).hex(), makeCacheKey(A).hex());
}

TEST(CacheKey, EveryInputChangesTheKey) {
  std::set<std::string> Keys;
  auto Add = [&](const KeyInputs &In) { Keys.insert(makeCacheKey(In).hex()); };
  Add(someInputs());
  unsigned Made = 1;
  auto Vary = [&](auto Change) {
    KeyInputs In = someInputs();
    Change(In);
    Add(In);
    ++Made;
  };
  Vary([](KeyInputs &In) { In.BitcodeHashLo ^= 1; });
  Vary([](KeyInputs &In) { In.BitcodeHashHi ^= uint64_t(1) << 63; });
  for (int I = 0; I < 3; ++I) {
    Vary([&](KeyInputs &In) { ++In.Config.grid[I]; });
    Vary([&](KeyInputs &In) { ++In.Config.block[I]; });
  }
  Vary([](KeyInputs &In) { ++In.Config.shared_bytes; });
  Vary([](KeyInputs &In) { In.Config.flags = MSTAGE_LAUNCH_FAST_MATH; });
  Vary([](KeyInputs &In) { In.StagedBytes = In.StagedBytes.drop_back(); });
  Vary([](KeyInputs &In) { In.StagedBytes = ""; });
  Vary([](KeyInputs &In) { In.FactBytes = "fact"; });
  Vary([](KeyInputs &In) { In.Target = "sm_90a"; });
  Vary([](KeyInputs &In) { In.JitOptionsText = "llvm-args=-x"; });
  EXPECT_EQ(Keys.size(), Made);
}

TEST(CacheKey, FieldsDoNotRunIntoEachOther) {
  // The same bytes split differently between neighbouring fields.
  KeyInputs A = someInputs(), B = someInputs(), C = someInputs();
  A.StagedBytes = "ab";
  A.FactBytes = "c";
  B.StagedBytes = "a";
  B.FactBytes = "bc";
  C.StagedBytes = "";
  C.FactBytes = "abc";
  EXPECT_NE(makeCacheKey(A).hex(), makeCacheKey(B).hex());
  EXPECT_NE(makeCacheKey(B).hex(), makeCacheKey(C).hex());
  KeyInputs D = someInputs(), E = someInputs();
  D.Target = "sm_9";
  D.JitOptionsText = "0";
  E.Target = "sm_90";
  E.JitOptionsText = "";
  EXPECT_NE(makeCacheKey(D).hex(), makeCacheKey(E).hex());
  // Bytes that spell a length do not fake a boundary: with the lengths left
  // out, both would hash "3:1:x".
  KeyInputs F = someInputs(), G = someInputs();
  F.FactBytes = "";
  F.Target = "1:x";
  G.FactBytes = "3:";
  G.Target = "x";
  EXPECT_NE(makeCacheKey(F).hex(), makeCacheKey(G).hex());
}

TEST(CacheKey, SameBytesInTwoFields) {
  // One buffer passed as two fields is hashed as two fields.
  std::string Shared = "same";
  KeyInputs A = someInputs(), B = someInputs();
  A.StagedBytes = A.FactBytes = Shared;
  B.StagedBytes = Shared;
  B.FactBytes = "";
  EXPECT_NE(makeCacheKey(A).hex(), makeCacheKey(B).hex());
}

TEST(CacheKey, EmptyAndHugeInputs) {
  KeyInputs Empty;
  KeyInputs Huge = someInputs();
  std::string Big(16 << 20, '\xab');
  Huge.StagedBytes = Big;
  CacheKey K1 = makeCacheKey(Empty), K2 = makeCacheKey(Huge);
  EXPECT_NE(K1.hex(), K2.hex());
  // One bit flipped at the end of a large value changes the key.
  Big.back() ^= 1;
  EXPECT_NE(makeCacheKey(Huge).hex(), K2.hex());
  EXPECT_EQ(makeCacheKey(KeyInputs()), K1);
}

TEST(CacheKey, HexIsTheBytesInOrder) {
  CacheKey K;
  for (size_t I = 0; I < K.Bytes.size(); ++I)
    K.Bytes[I] = uint8_t(I * 17);
  EXPECT_EQ(K.hex(), "00112233445566778899aabbccddeeff");
  std::string H = makeCacheKey(someInputs()).hex();
  EXPECT_EQ(H.size(), 32u);
  for (char C : H)
    EXPECT_TRUE(std::isdigit(C) || (C >= 'a' && C <= 'f')) << H;
  EXPECT_EQ(CacheKey().hex(), std::string(32, '0'));
}

TEST(CacheKey, BitcodeHashIsXxh3Of128Bits) {
  for (llvm::StringRef Bitcode :
       {llvm::StringRef(""), llvm::StringRef("BC\xc0\xde"),
        llvm::StringRef("a\0b", 3)}) {
    llvm::XXH128_hash_t Ref = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(Bitcode.data()), Bitcode.size()));
    std::array<uint64_t, 2> H = hashKernelBitcode(Bitcode);
    EXPECT_EQ(H[0], Ref.low64);
    EXPECT_EQ(H[1], Ref.high64);
  }
  // Bitcode that differs in its last byte.
  EXPECT_NE(hashKernelBitcode("abc"), hashKernelBitcode("abd"));
}

TEST(CacheKey, ToolchainIdentityNamesThisBuild) {
  llvm::StringRef Id = toolchainIdentity();
  EXPECT_TRUE(Id.starts_with("mstage " MSTAGE_TEST_VERSION " LLVM 22."))
      << Id.str();
  // The binary that holds the runtime's code, with its size and time.
  EXPECT_NE(Id.find("mstage-unittests "), llvm::StringRef::npos) << Id.str();
  EXPECT_EQ(toolchainIdentity().data(), Id.data()); // computed once
}

} // namespace
