//===- StageValueTextTest.cpp - Tests of staged values as text ------------===//
//
// The expected text comes from the C library's printf and the expected bytes
// from memcpy of typed values, not from the code under test.
//
//===----------------------------------------------------------------------===//
#include "formats/StageValueText.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace mstage;

namespace {

StageSite site(StageKind Kind, uint32_t Size) {
  StageSite S;
  S.Kind = Kind;
  S.Size = Size;
  S.Align = Size ? Size : 1;
  return S;
}

template <class T> std::string bytesOf(T V) {
  std::string B(sizeof(T), '\0');
  std::memcpy(B.data(), &V, sizeof(T));
  return B;
}

template <class T> std::string printfText(const char *Format, T V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

TEST(StageValueText, TypeNames) {
  EXPECT_EQ(stageTypeName(site(StageKind::Signed, 1)), "int8");
  EXPECT_EQ(stageTypeName(site(StageKind::Signed, 4)), "int32");
  EXPECT_EQ(stageTypeName(site(StageKind::Unsigned, 8)), "uint64");
  EXPECT_EQ(stageTypeName(site(StageKind::Float, 4)), "float");
  EXPECT_EQ(stageTypeName(site(StageKind::Float, 8)), "double");
  EXPECT_EQ(stageTypeName(site(StageKind::Bool, 1)), "bool");
  EXPECT_EQ(stageTypeName(site(StageKind::Bytes, 16)), "16-byte value");
  // A kind whose size it cannot have (a damaged blob) is shown as bytes.
  EXPECT_EQ(stageTypeName(site(StageKind::Signed, 3)), "3-byte value");
  EXPECT_EQ(stageTypeName(site(StageKind::Float, 2)), "2-byte value");
  EXPECT_EQ(stageTypeName(site(StageKind::Bool, 4)), "4-byte value");
  EXPECT_EQ(stageTypeName(site(StageKind::Bytes, 0)), "0-byte value");
  EXPECT_EQ(stageTypeName(site(static_cast<StageKind>(77), 4)), "4-byte value");
}

TEST(StageValueText, FormatsIntegersAtTheirLimits) {
  EXPECT_EQ(formatStageValue(site(StageKind::Signed, 1), bytesOf<int8_t>(-128)),
            "-128");
  EXPECT_EQ(
      formatStageValue(site(StageKind::Unsigned, 1), bytesOf<uint8_t>(255)),
      "255");
  EXPECT_EQ(formatStageValue(site(StageKind::Signed, 2), bytesOf<int16_t>(-2)),
            "-2");
  for (int64_t V : {std::numeric_limits<int64_t>::min(), int64_t(-1),
                    int64_t(0), std::numeric_limits<int64_t>::max()})
    EXPECT_EQ(formatStageValue(site(StageKind::Signed, 8), bytesOf(V)),
              printfText("%lld", (long long)V));
  for (uint64_t V : {uint64_t(0), ~uint64_t(0)})
    EXPECT_EQ(formatStageValue(site(StageKind::Unsigned, 8), bytesOf(V)),
              printfText("%llu", (unsigned long long)V));
  EXPECT_EQ(
      formatStageValue(site(StageKind::Signed, 4), bytesOf<int32_t>(INT32_MIN)),
      "-2147483648");
  // The same bytes as unsigned.
  EXPECT_EQ(
      formatStageValue(site(StageKind::Unsigned, 4), bytesOf<int32_t>(-1)),
      "4294967295");
}

TEST(StageValueText, FormatsFloatsAsPrintfDoes) {
  for (float F : {0.0f, -0.0f, 1.5f, 0.1f, FLT_MIN, FLT_MAX, FLT_TRUE_MIN,
                  INFINITY, -INFINITY})
    EXPECT_EQ(formatStageValue(site(StageKind::Float, 4), bytesOf(F)),
              printfText("%.9g", double(F)));
  for (double D : {0.1, -1e300, DBL_MIN, DBL_TRUE_MIN, 1.0 / 3})
    EXPECT_EQ(formatStageValue(site(StageKind::Float, 8), bytesOf(D)),
              printfText("%.17g", D));
  EXPECT_EQ(formatStageValue(site(StageKind::Float, 8), bytesOf(double(NAN))),
            printfText("%.17g", double(NAN)));
}

TEST(StageValueText, FormatsBoolsAndBytes) {
  EXPECT_EQ(formatStageValue(site(StageKind::Bool, 1), std::string(1, '\0')),
            "false");
  EXPECT_EQ(formatStageValue(site(StageKind::Bool, 1), std::string(1, '\1')),
            "true");
  // Any non-zero byte is true, as C++ reads a bool's storage.
  EXPECT_EQ(formatStageValue(site(StageKind::Bool, 1), std::string(1, '\x80')),
            "true");
  EXPECT_EQ(formatStageValue(site(StageKind::Bytes, 4),
                             llvm::StringRef("\x01\xab\x00\xff", 4)),
            "0x01ab00ff");
  EXPECT_EQ(formatStageValue(site(StageKind::Bytes, 0), ""), "0x");
}

TEST(StageValueText, WrongNumberOfBytesIsShownAsBytes) {
  // Bytes of another size than the site's are never read as the type.
  EXPECT_EQ(formatStageValue(site(StageKind::Signed, 4), "\x05"), "0x05");
  EXPECT_EQ(formatStageValue(site(StageKind::Float, 8), ""), "0x");
  EXPECT_EQ(formatStageValue(site(StageKind::Bool, 1), "\x01\x01"), "0x0101");
}

TEST(StageValueText, HugeValue) {
  StageSite S = site(StageKind::Bytes, MaxStageValueSize);
  std::string Bytes(MaxStageValueSize, '\x5a');
  std::string Text = formatStageValue(S, Bytes);
  EXPECT_EQ(Text.size(), 2 + 2 * size_t(MaxStageValueSize));
  EXPECT_EQ(Text.substr(0, 6), "0x5a5a");
  std::optional<std::string> Back = parseStageValue(S, Text);
  ASSERT_TRUE(Back.has_value());
  EXPECT_EQ(*Back, Bytes);
}

TEST(StageValueText, ParsesIntegers) {
  EXPECT_EQ(parseStageValue(site(StageKind::Signed, 4), "-7"),
            bytesOf<int32_t>(-7));
  EXPECT_EQ(parseStageValue(site(StageKind::Signed, 4), " 42\t"),
            bytesOf<int32_t>(42));
  EXPECT_EQ(parseStageValue(site(StageKind::Unsigned, 2), "0xffff"),
            bytesOf<uint16_t>(0xffff));
  EXPECT_EQ(parseStageValue(site(StageKind::Signed, 1), "-128"),
            bytesOf<int8_t>(-128));
  EXPECT_EQ(parseStageValue(site(StageKind::Signed, 8), "-9223372036854775808"),
            bytesOf(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(
      parseStageValue(site(StageKind::Unsigned, 8), "18446744073709551615"),
      bytesOf(~uint64_t(0)));
}

TEST(StageValueText, RefusesIntegersThatDoNotFit) {
  for (const char *T : {"128", "-129", "", " ", "1.5", "12abc", "0x", "--1"})
    EXPECT_FALSE(parseStageValue(site(StageKind::Signed, 1), T)) << T;
  for (const char *T : {"256", "-1", "0x100"})
    EXPECT_FALSE(parseStageValue(site(StageKind::Unsigned, 1), T)) << T;
  EXPECT_FALSE(parseStageValue(site(StageKind::Signed, 4), "2147483648"));
  EXPECT_FALSE(parseStageValue(site(StageKind::Unsigned, 4), "4294967296"));
  EXPECT_FALSE(
      parseStageValue(site(StageKind::Unsigned, 8), "18446744073709551616"));
  EXPECT_FALSE(
      parseStageValue(site(StageKind::Signed, 8), "9223372036854775808"));
}

TEST(StageValueText, ParsesBoolsFloatsAndBytes) {
  StageSite B = site(StageKind::Bool, 1);
  EXPECT_EQ(parseStageValue(B, "true"), std::string(1, '\1'));
  EXPECT_EQ(parseStageValue(B, "1"), std::string(1, '\1'));
  EXPECT_EQ(parseStageValue(B, "false"), std::string(1, '\0'));
  EXPECT_EQ(parseStageValue(B, "0"), std::string(1, '\0'));
  for (const char *T : {"TRUE", "2", "yes", ""})
    EXPECT_FALSE(parseStageValue(B, T)) << T;
  EXPECT_EQ(parseStageValue(site(StageKind::Float, 4), "0.1"), bytesOf(0.1f));
  EXPECT_EQ(parseStageValue(site(StageKind::Float, 8), "-2.5e-3"),
            bytesOf(-2.5e-3));
  EXPECT_FALSE(parseStageValue(site(StageKind::Float, 8), "one"));
  StageSite Raw = site(StageKind::Bytes, 3);
  EXPECT_EQ(parseStageValue(Raw, "0x01ABff"), std::string("\x01\xab\xff", 3));
  for (const char *T : {"01abff", "0x01ab", "0x01abff00", "0xzzzzzz", ""})
    EXPECT_FALSE(parseStageValue(Raw, T)) << T;
  // A site of a size its kind cannot have reads bytes.
  EXPECT_EQ(parseStageValue(site(StageKind::Signed, 3), "0x000102"),
            std::string("\x00\x01\x02", 3));
  EXPECT_FALSE(parseStageValue(site(StageKind::Signed, 3), "5"));
}

// What formatStageValue writes parses back to the same bytes (the fuzzer's
// property, on the values at the edges).
TEST(StageValueText, FormatThenParseGivesTheBytes) {
  struct Case {
    StageSite S;
    std::string Bytes;
  } Cases[] = {
      {site(StageKind::Signed, 8),
       bytesOf(std::numeric_limits<int64_t>::min())},
      {site(StageKind::Unsigned, 8), bytesOf(~uint64_t(0))},
      {site(StageKind::Signed, 2), bytesOf<int16_t>(-32768)},
      {site(StageKind::Float, 4), bytesOf(FLT_TRUE_MIN)},
      {site(StageKind::Float, 4), bytesOf(-FLT_MAX)},
      {site(StageKind::Float, 8), bytesOf(DBL_TRUE_MIN)},
      {site(StageKind::Float, 8), bytesOf(-0.0)},
      {site(StageKind::Float, 8), bytesOf(1.0 / 3)},
      {site(StageKind::Bool, 1), std::string(1, '\1')},
      {site(StageKind::Bytes, 5), std::string("\0\1\2\3\xff", 5)},
  };
  for (const Case &C : Cases) {
    std::string Text = formatStageValue(C.S, C.Bytes);
    std::optional<std::string> Back = parseStageValue(C.S, Text);
    ASSERT_TRUE(Back.has_value()) << Text;
    EXPECT_EQ(*Back, C.Bytes) << Text;
  }
}

} // namespace
