//===- DiskEntryTest.cpp - Tests of the disk-cache entry format -----------===//
//
// The expected bytes are built here from the format that DiskEntry.h
// describes, field by field, not by the encoder.
//
//===----------------------------------------------------------------------===//
#include "cache/DiskEntry.h"

#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include "LittleEndian.h"

#include <cstring>
#include <string>
#include <vector>

using namespace mstage::rt;
using mstage::test::appendLE;

namespace {

std::vector<uint8_t> key(uint8_t Seed) {
  std::vector<uint8_t> K(DiskEntryKeySize);
  for (size_t I = 0; I < K.size(); ++I)
    K[I] = uint8_t(Seed + 7 * I);
  return K;
}

uint64_t keyedHash(const std::vector<uint8_t> &Key, llvm::StringRef S) {
  std::string Bytes(Key.begin(), Key.end());
  Bytes += S.str();
  return llvm::xxh3_64bits(llvm::StringRef(Bytes));
}

// The entry as the format describes it.
std::string referenceEntry(const std::vector<uint8_t> &Key, llvm::StringRef PTX,
                           llvm::StringRef Cubin) {
  std::string Out = "MSTGCACH";
  appendLE(Out, 3, 4);  // version
  appendLE(Out, 64, 4); // header size
  Out.append(Key.begin(), Key.end());
  appendLE(Out, PTX.size(), 8);
  appendLE(Out, Cubin.size(), 8);
  appendLE(Out, keyedHash(Key, PTX), 8);
  appendLE(Out, keyedHash(Key, Cubin), 8);
  return Out + PTX.str() + Cubin.str();
}

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

template <class T> std::string failureOf(llvm::Expected<T> V) {
  if (V)
    return "(accepted)";
  return errorText(V.takeError());
}

const char *const SomePTX = ".version 8.0\n.target sm_90\n";

TEST(DiskEntry, EncodesTheDocumentedLayout) {
  std::vector<uint8_t> K = key(1);
  EXPECT_EQ(encodeDiskEntry(K, SomePTX, "CUBIN\0bytes"),
            referenceEntry(K, SomePTX, "CUBIN\0bytes"));
  EXPECT_EQ(encodeDiskEntry(K, "", ""), referenceEntry(K, "", ""));
  EXPECT_EQ(encodeDiskEntry(K, "", "").size(), DiskEntryHeaderSize);
}

TEST(DiskEntry, DecodesWhatItEncodes) {
  std::vector<uint8_t> K = key(2);
  std::string Cubin("\x7f"
                    "ELF\0\0\x01",
                    7);
  std::string E = referenceEntry(K, SomePTX, Cubin);
  llvm::Expected<DiskEntryView> V = decodeDiskEntry(K, E);
  ASSERT_TRUE(bool(V)) << errorText(V.takeError());
  EXPECT_EQ(V->PTX, SomePTX);
  EXPECT_EQ(V->Cubin, Cubin);
  // The sections point into the bytes read, not into a copy.
  EXPECT_EQ(V->PTX.data(), E.data() + DiskEntryHeaderSize);
  llvm::Expected<uint64_t> Size = diskEntrySize(K, E);
  ASSERT_TRUE(bool(Size));
  EXPECT_EQ(*Size, E.size());
}

TEST(DiskEntry, EmptySections) {
  std::vector<uint8_t> K = key(3);
  for (auto [P, C] : {std::pair<const char *, const char *>{"", ""},
                      {"ptx", ""},
                      {"", "cubin"}}) {
    std::string E = referenceEntry(K, P, C);
    llvm::Expected<DiskEntryView> V = decodeDiskEntry(K, E);
    ASSERT_TRUE(bool(V)) << errorText(V.takeError());
    EXPECT_EQ(V->PTX, P);
    EXPECT_EQ(V->Cubin, C);
  }
}

TEST(DiskEntry, SameSectionTwice) {
  // PTX and cubin may be the same bytes; each is checked on its own.
  std::vector<uint8_t> K = key(4);
  llvm::StringRef S = SomePTX;
  std::string E = encodeDiskEntry(K, S, S);
  EXPECT_EQ(E, referenceEntry(K, S, S));
  llvm::Expected<DiskEntryView> V = decodeDiskEntry(K, E);
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->PTX, V->Cubin);
}

TEST(DiskEntry, LargeSections) {
  std::vector<uint8_t> K = key(5);
  std::string Big(3 << 20, 'x');
  Big[12345] = '\0';
  std::string E = encodeDiskEntry(K, Big, Big.substr(1));
  EXPECT_EQ(E, referenceEntry(K, Big, Big.substr(1)));
  llvm::Expected<DiskEntryView> V = decodeDiskEntry(K, E);
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->PTX.size(), Big.size());
}

TEST(DiskEntry, EveryTruncationIsAnError) {
  std::vector<uint8_t> K = key(6);
  std::string E = referenceEntry(K, SomePTX, "cubin");
  for (size_t N = 0; N < E.size(); ++N) {
    std::string Why =
        failureOf(decodeDiskEntry(K, llvm::StringRef(E).take_front(N)));
    EXPECT_EQ(Why.rfind("truncated (", 0), 0u) << N << ": " << Why;
  }
  EXPECT_EQ(failureOf(decodeDiskEntry(K, llvm::StringRef(E).drop_back())),
            "truncated (" + std::to_string(E.size() - 1) +
                " bytes, header says " + std::to_string(E.size()) + ")");
  EXPECT_EQ(failureOf(diskEntrySize(K, llvm::StringRef(E).take_front(63))),
            "truncated (63 bytes)");
  EXPECT_EQ(failureOf(decodeDiskEntry(K, E + "x")),
            "too long (" + std::to_string(E.size() + 1) +
                " bytes, header says " + std::to_string(E.size()) + ")");
}

TEST(DiskEntry, WrongMagicVersionOrHeaderSize) {
  std::vector<uint8_t> K = key(7);
  std::string Good = referenceEntry(K, SomePTX, "");
  for (size_t At = 0; At < 8; ++At) {
    std::string E = Good;
    E[At] ^= 0x20;
    EXPECT_EQ(failureOf(decodeDiskEntry(K, E)), "not an mstage cache entry");
  }
  for (size_t At : {8, 11, 12, 15}) { // version, header size
    std::string E = Good;
    E[At] ^= 1;
    EXPECT_EQ(failureOf(decodeDiskEntry(K, E)),
              "written by another version of mstage")
        << At;
  }
  // The entry format before this one (version 2) is not read.
  std::string Old = Good;
  Old[8] = 2;
  EXPECT_EQ(failureOf(diskEntrySize(K, Old)),
            "written by another version of mstage");
}

TEST(DiskEntry, AnotherKey) {
  std::vector<uint8_t> K = key(8), Other = key(9);
  std::string E = referenceEntry(K, SomePTX, "c");
  EXPECT_EQ(failureOf(decodeDiskEntry(Other, E)), "holds another key");
  // A body moved under another key's header: the checksums cover the key.
  std::string Moved = referenceEntry(Other, SomePTX, "c");
  std::memcpy(Moved.data() + 16, K.data(), K.size());
  EXPECT_EQ(failureOf(decodeDiskEntry(K, Moved)), "checksum mismatch");
  // Keys of the wrong size are refused, even when a prefix would match.
  std::vector<uint8_t> Short(K.begin(), K.end() - 1);
  EXPECT_EQ(failureOf(decodeDiskEntry(Short, E)), "the key has 15 bytes");
  EXPECT_EQ(failureOf(diskEntrySize({}, E)), "the key has 0 bytes");
}

TEST(DiskEntry, EveryFlippedBodyByteIsAnError) {
  std::vector<uint8_t> K = key(10);
  std::string Good = referenceEntry(K, SomePTX, "cubin bytes");
  for (size_t At = DiskEntryHeaderSize; At < Good.size(); ++At) {
    std::string E = Good;
    E[At] ^= 0x01;
    EXPECT_EQ(failureOf(decodeDiskEntry(K, E)), "checksum mismatch") << At;
  }
  // So is a flipped checksum.
  for (size_t At : {48, 56}) {
    std::string E = Good;
    E[At] ^= 0x80;
    EXPECT_EQ(failureOf(decodeDiskEntry(K, E)), "checksum mismatch") << At;
  }
}

TEST(DiskEntry, SizesThatWouldOverflow) {
  std::vector<uint8_t> K = key(11);
  std::string E = referenceEntry(K, "", "");
  std::string Huge;
  appendLE(Huge, ~uint64_t(0), 8);
  E.replace(32, 8, Huge); // the PTX's size
  EXPECT_EQ(failureOf(diskEntrySize(K, E)),
            "sizes out of range (PTX 18446744073709551615, cubin 0 bytes)");
  // Two sizes whose sum wraps to the entry's real size.
  std::string F = referenceEntry(K, "", "");
  std::string A, B;
  appendLE(A, uint64_t(1) << 63, 8);
  appendLE(B, uint64_t(1) << 63, 8);
  F.replace(32, 8, A);
  F.replace(40, 8, B);
  EXPECT_EQ(failureOf(decodeDiskEntry(K, F)).rfind("sizes out of range", 0),
            0u);
  // The largest accepted size is read, and the data found short.
  std::string G = referenceEntry(K, "", "");
  std::string Max;
  appendLE(Max, uint64_t(1) << 62, 8);
  G.replace(32, 8, Max);
  llvm::Expected<uint64_t> Size = diskEntrySize(K, G);
  ASSERT_TRUE(bool(Size));
  EXPECT_EQ(*Size, (uint64_t(1) << 62) + 64);
  EXPECT_EQ(failureOf(decodeDiskEntry(K, G)).rfind("truncated (64 bytes", 0),
            0u);
}

} // namespace
