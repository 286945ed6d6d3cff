//===- CudaToolkitTest.cpp - Tests of the architecture ptxas gets ---------===//
//
// ptxas refuses sm_90a PTX for -arch=sm_90: PTX whose .target is the
// device's arch-specific variant (a kernel that uses wgmma) is assembled for
// that variant, anything else for the device's architecture.
//
//===----------------------------------------------------------------------===//
#include "aot/CudaToolkit.h"

#include "gtest/gtest.h"

namespace {

TEST(CudaToolkitTest, ArchSpecificTargetIsKept) {
  EXPECT_EQ(mstage::ptxasArch(".version 8.0\n.target sm_90a\n", "sm_90"),
            "sm_90a");
  EXPECT_EQ(mstage::ptxasArch(".target sm_90a, debug\n", "sm_90"), "sm_90a");
}

TEST(CudaToolkitTest, PlainTargetGetsTheDevicesArch) {
  EXPECT_EQ(mstage::ptxasArch(".version 7.8\n.target sm_90\n", "sm_90"),
            "sm_90");
  // PTX for an older target runs on the device: assembled for the device.
  EXPECT_EQ(mstage::ptxasArch(".target sm_80\n", "sm_90"), "sm_90");
  // Another architecture's variant is not the device's.
  EXPECT_EQ(mstage::ptxasArch(".target sm_100a\n", "sm_90"), "sm_90");
  EXPECT_EQ(mstage::ptxasArch("", "sm_86"), "sm_86");
}

} // namespace
