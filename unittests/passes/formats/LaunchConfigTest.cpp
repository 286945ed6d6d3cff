//===- LaunchConfigTest.cpp - Tests of the launch configuration type ------===//
//
// A LaunchConfig is the C ABI's mstage_launch_config byte for byte: the
// offsets the stage slicer emits, the bytes the cache key hashes and the
// fields the JIT folds are the C struct's. The expected layout is the C
// ABI's, written out here again.
//
//===----------------------------------------------------------------------===//
#include "formats/LaunchConfig.h"

#include "gtest/gtest.h"

#include <cstring>

using mstage::LaunchConfig;

namespace {

// Every field a different value, so that a field read from the wrong place
// shows.
mstage_launch_config distinct() {
  return {{11, 12, 13}, {21, 22, 23}, 31, MSTAGE_LAUNCH_FAST_MATH};
}

// The 32-bit field at Offset of C's bytes, as a host evaluator loads it.
uint32_t loadAt(const mstage_launch_config &C, unsigned Offset) {
  uint32_t V;
  std::memcpy(&V, reinterpret_cast<const char *>(&C) + Offset, sizeof(V));
  return V;
}

TEST(LaunchConfig, LayoutIsTheCStructs) {
  // grid[3], block[3], shared_bytes, flags: 4 bytes each.
  EXPECT_EQ(sizeof(LaunchConfig), 32u);
  EXPECT_EQ(LaunchConfig::GridDimOffset, 0u);
  EXPECT_EQ(LaunchConfig::BlockDimOffset, 12u);
  EXPECT_EQ(LaunchConfig::SharedBytesOffset, 24u);
  EXPECT_EQ(LaunchConfig::AxisStride, 4u);
}

TEST(LaunchConfig, EvaluatorOffsetsReadTheFields) {
  mstage_launch_config C = distinct();
  for (unsigned A = 0; A < 3; ++A) {
    EXPECT_EQ(
        loadAt(C, LaunchConfig::GridDimOffset + LaunchConfig::AxisStride * A),
        C.grid[A])
        << "grid axis " << A;
    EXPECT_EQ(
        loadAt(C, LaunchConfig::BlockDimOffset + LaunchConfig::AxisStride * A),
        C.block[A])
        << "block axis " << A;
  }
  // blockDim.y, as test/passes/transforms/stage-slicing-launch-config.ll checks.
  EXPECT_EQ(loadAt(C, 16), 22u);
  EXPECT_EQ(loadAt(C, LaunchConfig::SharedBytesOffset), 31u);
}

TEST(LaunchConfig, AccessorsReadTheCStruct) {
  LaunchConfig C = distinct();
  EXPECT_EQ(C.gridDim(0), 11u);
  EXPECT_EQ(C.gridDim(1), 12u);
  EXPECT_EQ(C.gridDim(2), 13u);
  EXPECT_EQ(C.blockDim(0), 21u);
  EXPECT_EQ(C.blockDim(1), 22u);
  EXPECT_EQ(C.blockDim(2), 23u);
  EXPECT_EQ(C.sharedBytes(), 31u);
  EXPECT_TRUE(C.fastMath());
  mstage_launch_config Plain = distinct();
  Plain.flags = 0;
  EXPECT_FALSE(LaunchConfig(Plain).fastMath());
}

TEST(LaunchConfig, DefaultIsOneThread) {
  LaunchConfig C;
  for (unsigned A = 0; A < 3; ++A) {
    EXPECT_EQ(C.gridDim(A), 1u);
    EXPECT_EQ(C.blockDim(A), 1u);
  }
  EXPECT_EQ(C.sharedBytes(), 0u);
  EXPECT_EQ(C.flags, 0u);
}

TEST(LaunchConfig, SettersWriteTheCStruct) {
  LaunchConfig C({4, 5, 6}, {64, 2, 1});
  C.setSharedBytes(1024);
  const mstage_launch_config &Abi = C; // what an evaluator is given
  mstage_launch_config Want = {{4, 5, 6}, {64, 2, 1}, 1024, 0};
  EXPECT_EQ(std::memcmp(&Abi, &Want, sizeof(Want)), 0);
}

TEST(LaunchConfig, FastMathKeepsOtherFlags) {
  // A bit no mstage version sets: the launch rejects it, but the setter
  // must not hide it.
  const uint32_t Other = 0x80000000u;
  LaunchConfig C;
  C.flags = Other;
  C.setFastMath(true);
  EXPECT_EQ(C.flags, Other | MSTAGE_LAUNCH_FAST_MATH);
  EXPECT_TRUE(C.fastMath());
  C.setFastMath(false);
  EXPECT_EQ(C.flags, Other);
  EXPECT_FALSE(C.fastMath());
}

TEST(LaunchConfig, BytesAreTheCStructs) {
  // The cache keys hash these bytes: the same as before the type existed.
  mstage_launch_config Raw = distinct();
  LaunchConfig C = Raw;
  ASSERT_EQ(C.bytes().size(), sizeof(Raw));
  EXPECT_EQ(std::memcmp(C.bytes().data(), &Raw, sizeof(Raw)), 0);
  LaunchConfig D = Raw;
  D.setSharedBytes(32);
  EXPECT_NE(C.bytes(), D.bytes());
}

TEST(LaunchConfig, ConstructedFromExtents) {
  LaunchConfig C({7, 8, 9}, {32, 4, 2}, 512, MSTAGE_LAUNCH_FAST_MATH);
  mstage_launch_config Raw = {
      {7, 8, 9}, {32, 4, 2}, 512, MSTAGE_LAUNCH_FAST_MATH};
  EXPECT_EQ(std::memcmp(C.bytes().data(), &Raw, sizeof(Raw)), 0);
}

} // namespace
