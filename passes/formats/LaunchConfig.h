//===- LaunchConfig.h - A launch's configuration, from the ABI to the JIT -===//
//
// The C ABI's mstage_launch_config (include/mstage/abi.h) with accessors:
// the one form a launch configuration takes from mstage_rt_launch through
// the staged launch and its cache key to the JIT, which folds it into the
// kernel (foldLaunchConfig). The stage slicer makes host evaluators read it
// through a pointer at the offsets below, so they follow the C struct.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_LAUNCHCONFIG_H
#define MSTAGE_PASSES_FORMATS_LAUNCHCONFIG_H

#include "mstage/abi.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace mstage {

// Derived without members of its own, so a LaunchConfig is a
// mstage_launch_config: evaluators, the CPU back end and the launch limits
// read the C struct that the ABI handed in.
struct LaunchConfig : mstage_launch_config {
  LaunchConfig(const uint32_t (&Grid)[3], const uint32_t (&Block)[3],
               uint32_t SharedBytes = 0, uint32_t Flags = 0)
      : mstage_launch_config{{Grid[0], Grid[1], Grid[2]},
                             {Block[0], Block[1], Block[2]},
                             SharedBytes,
                             Flags} {}
  // One block of one thread, no dynamic shared memory, no flags.
  LaunchConfig() : LaunchConfig({1, 1, 1}, {1, 1, 1}) {}
  // Implicit: what the ABI hands in is a launch configuration.
  LaunchConfig(const mstage_launch_config &C) : mstage_launch_config(C) {}

  uint32_t gridDim(unsigned Axis) const {
    assert(Axis < 3 && "an axis is x, y or z");
    return grid[Axis];
  }
  uint32_t blockDim(unsigned Axis) const {
    assert(Axis < 3 && "an axis is x, y or z");
    return block[Axis];
  }
  // The grid's blocks, and a block's threads.
  uint64_t blocks() const { return uint64_t(grid[0]) * grid[1] * grid[2]; }
  uint64_t blockThreads() const {
    return uint64_t(block[0]) * block[1] * block[2];
  }
  // The launch's dynamic shared memory in bytes.
  uint32_t sharedBytes() const { return shared_bytes; }
  bool fastMath() const { return flags & MSTAGE_LAUNCH_FAST_MATH; }

  void setSharedBytes(uint32_t N) { shared_bytes = N; }
  void setFastMath(bool On) {
    flags = On ? flags | MSTAGE_LAUNCH_FAST_MATH
               : flags & ~uint32_t(MSTAGE_LAUNCH_FAST_MATH);
  }

  // The bytes of the C struct, as the cache keys hold them.
  std::string_view bytes() const {
    return {reinterpret_cast<const char *>(this), sizeof(*this)};
  }

  // Where a host evaluator loads each 32-bit field from the pointer it is
  // given (StageSlicing.cpp): axis A of the grid at GridDimOffset + 4 * A.
  static constexpr unsigned GridDimOffset =
      offsetof(mstage_launch_config, grid);
  static constexpr unsigned BlockDimOffset =
      offsetof(mstage_launch_config, block);
  static constexpr unsigned SharedBytesOffset =
      offsetof(mstage_launch_config, shared_bytes);
  static constexpr unsigned AxisStride = sizeof(uint32_t);
};

// The slicer emits `load i32` at these offsets from the C struct's pointer.
static_assert(sizeof(LaunchConfig) == sizeof(mstage_launch_config) &&
                  std::is_standard_layout_v<LaunchConfig> &&
                  std::is_trivially_copyable_v<LaunchConfig>,
              "a LaunchConfig is the C ABI's struct, byte for byte");
static_assert(
    std::is_same_v<decltype(mstage_launch_config::shared_bytes), uint32_t> &&
        sizeof(mstage_launch_config::grid) == 3 * LaunchConfig::AxisStride &&
        sizeof(mstage_launch_config::block) == 3 * LaunchConfig::AxisStride,
    "evaluators load each extent and the shared size as an i32");
// The offsets that test/passes/transforms/stage-slicing-launch-config.ll pins.
static_assert(LaunchConfig::GridDimOffset == 0 &&
                  LaunchConfig::BlockDimOffset == 12 &&
                  LaunchConfig::SharedBytesOffset == 24,
              "a changed layout of mstage_launch_config is a new ABI "
              "version: bump MSTAGE_ABI_VERSION and the slicing test");

} // namespace mstage

#endif
