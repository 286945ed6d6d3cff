//===- LaunchLimitsTest.cpp - Tests of the launch shapes a GPU takes ------===//
//
// The limits are the CUDA programming guide's ("Technical Specifications
// per Compute Capability"), written out here again.
//
//===----------------------------------------------------------------------===//
#include "core/LaunchLimits.h"

#include "gtest/gtest.h"

using namespace mstage::rt;

namespace {

mstage_launch_config shape(uint32_t Gx, uint32_t Gy, uint32_t Gz, uint32_t Bx,
                           uint32_t By, uint32_t Bz, uint32_t Shared = 0) {
  return {{Gx, Gy, Gz}, {Bx, By, Bz}, Shared, 0};
}

// "" when E is success, else its message.
std::string messageOf(llvm::Error E) {
  if (!E)
    return "";
  return failureMessage(std::move(E));
}

TEST(LaunchLimits, ArchitectureTable) {
  struct {
    const char *Arch;
    uint64_t SharedKiB;
    const char *Whose;
  } Known[] = {{"sm_50", 48, "sm_50's"},    {"sm_70", 96, "sm_70's"},
               {"sm_75", 64, "sm_75's"},    {"sm_80", 163, "sm_80's"},
               {"sm_86", 99, "sm_86's"},    {"sm_89", 99, "sm_89's"},
               {"sm_90", 227, "sm_90's"},   {"sm_90a", 227, "sm_90's"},
               {"sm_100", 227, "sm_100's"}, {"sm_120", 99, "sm_120's"}};
  for (const auto &K : Known) {
    LaunchLimits L = archLaunchLimits(K.Arch);
    EXPECT_EQ(L.SharedBytes, K.SharedKiB * 1024) << K.Arch;
    EXPECT_EQ(L.Whose, K.Whose) << K.Arch;
    EXPECT_EQ(L.Block[0], 1024u);
    EXPECT_EQ(L.Block[1], 1024u);
    EXPECT_EQ(L.Block[2], 64u);
    EXPECT_EQ(L.Grid[0], 2147483647u);
    EXPECT_EQ(L.Grid[1], 65535u);
    EXPECT_EQ(L.Grid[2], 65535u);
    EXPECT_EQ(L.BlockThreads, 1024u);
    EXPECT_EQ(L.Note, "");
  }
  // Architectures the table does not know, and names that are none, get
  // sm_90's limits.
  for (const char *Unknown : {"sm_20", "sm_999", "", "compute_90", "sm_"}) {
    LaunchLimits L = archLaunchLimits(Unknown);
    EXPECT_EQ(L.Whose, "sm_90's") << Unknown;
    EXPECT_EQ(L.SharedBytes, 227u * 1024) << Unknown;
  }
}

TEST(LaunchLimits, ShapesAtTheLimitsFit) {
  LaunchLimits L = archLaunchLimits("sm_90");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 1, 1, 1), L)), "");
  EXPECT_EQ(messageOf(checkLaunchShape(
                shape(2147483647, 65535, 65535, 1024, 1, 1, 227 * 1024), L)),
            "");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 16, 1, 64), L)), "");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 32, 32, 1), L)), "");
  // Zero extents are not a shape's business here (the launch refuses them).
  EXPECT_EQ(messageOf(checkLaunchShape(shape(0, 0, 0, 0, 0, 0), L)), "");
}

TEST(LaunchLimits, ShapesOverALimit) {
  LaunchLimits L = archLaunchLimits("sm_90");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 1025, 1, 1), L)),
            "has block.x 1025, over sm_90's limit of 1024");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 1, 1, 65), L)),
            "has block.z 65, over sm_90's limit of 64");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 32, 32, 2), L)),
            "has block 32x32x2, 2048 threads per block, over sm_90's limit "
            "of 1024");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 65536, 1, 1, 1, 1), L)),
            "has grid.y 65536, over sm_90's limit of 65535");
  EXPECT_EQ(messageOf(checkLaunchShape(shape(0xffffffff, 1, 1, 1, 1, 1), L)),
            "has grid.x 4294967295, over sm_90's limit of 2147483647");
  EXPECT_EQ(
      messageOf(checkLaunchShape(shape(1, 1, 1, 1, 1, 1, 227 * 1024 + 1), L)),
      "has shared_bytes 232449 (dynamic shared memory), over sm_90's "
      "limit of 232448");
  // The largest extents: the per-axis limit is named first, and nothing
  // overflows.
  EXPECT_EQ(messageOf(checkLaunchShape(shape(0xffffffff, 0xffffffff, 0xffffffff,
                                             0xffffffff, 0xffffffff, 0xffffffff,
                                             0xffffffff),
                                       L)),
            "has block.x 4294967295, over sm_90's limit of 1024");
  // A device's limits carry its note.
  L.Note = " (NVIDIA H100, sm_90)";
  L.Whose = "the device's";
  EXPECT_EQ(messageOf(checkLaunchShape(shape(1, 1, 1, 1, 2048, 1), L)),
            "has block.y 2048, over the device's limit of 1024 (NVIDIA H100, "
            "sm_90)");
}

TEST(LaunchLimits, SharedMemory) {
  LaunchLimits L = archLaunchLimits("sm_75"); // 64 KiB
  EXPECT_EQ(messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1), 0, L)), "");
  EXPECT_EQ(messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1), 48 * 1024, L)),
            "");
  EXPECT_EQ(messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1, 16 * 1024),
                                        48 * 1024, L)),
            "");
  EXPECT_EQ(
      messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1), 48 * 1024 + 1, L)),
      "has 49153 bytes of shared_array, over the limit of 49152 bytes of "
      "static shared memory per kernel; take large arrays from dynamic "
      "shared memory (shared_arena and the launch's shared_bytes)");
  EXPECT_EQ(messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1, 16 * 1024 + 1),
                                        48 * 1024, L)),
            "has 65537 bytes of shared memory (49152 of shared_array, 16385 "
            "of shared_bytes), over sm_75's limit of 65536");
  // Without shared_array, only checkLaunchShape holds the dynamic part.
  EXPECT_EQ(
      messageOf(checkSharedMemory(shape(1, 1, 1, 1, 1, 1, 0xffffffff), 0, L)),
      "");
  EXPECT_EQ(StaticSharedLimit, 48u * 1024);
}

} // namespace
