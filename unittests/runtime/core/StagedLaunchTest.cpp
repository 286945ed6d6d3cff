//===- StagedLaunchTest.cpp - A launch's key and its configuration --------===//
//
// The launch configuration goes into a staged launch's key as the C ABI's
// bytes, reaches the evaluators as the C struct, and comes back out of the
// key unchanged for a background compile (StagedLaunch(K, Key)).
//
//===----------------------------------------------------------------------===//
#include "core/StagedLaunch.h"
#include "support/RuntimeFailure.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace mstage::rt;
using mstage::LaunchConfig;

namespace {

// Evaluators as the slicer makes them, written against the C struct.
int stageBlockY(void *const *, const mstage_launch_config *C, void *Result) {
  std::memcpy(Result, &C->block[1], sizeof(uint32_t));
  return 0;
}
int stageSharedBytes(void *const *, const mstage_launch_config *C,
                     void *Result) {
  uint64_t Wide = C->shared_bytes; // a site of another size
  std::memcpy(Result, &Wide, sizeof(Wide));
  return 0;
}

const mstage_evaluator_fn Evaluators[] = {stageBlockY, stageSharedBytes};

struct TwoSiteKernel {
  mstage_kernel_record Record{};
  RegisteredKernel K;
  TwoSiteKernel() {
    Record.evaluators = Evaluators;
    Record.num_evaluators = 2;
    K.Record = &Record;
    K.Blob.StageSites.resize(2);
    K.Blob.StageSites[0].Size = 4;
    K.Blob.StageSites[1].Size = 8;
  }
};

template <class T> T valueOf(llvm::StringRef Bytes) {
  T V;
  EXPECT_EQ(Bytes.size(), sizeof(V));
  std::memcpy(&V, Bytes.data(), sizeof(V));
  return V;
}

TEST(StagedLaunch, EvaluatorsSeeTheLaunchConfig) {
  TwoSiteKernel Kernel;
  LaunchConfig Config({8, 1, 1}, {32, 7, 1}, 4096);
  StagedLaunch S(Kernel.K, nullptr, Config);
  EXPECT_EQ(S.GaveUp, -1);
  ASSERT_EQ(S.Values.size(), 2u);
  EXPECT_EQ(valueOf<uint32_t>(S.Values[0]), 7u);
  EXPECT_EQ(valueOf<uint64_t>(S.Values[1]), 4096u);
}

TEST(StagedLaunch, KeyStartsWithTheConfigsBytes) {
  TwoSiteKernel Kernel;
  LaunchConfig Config({8, 2, 1}, {32, 7, 1}, 4096, MSTAGE_LAUNCH_FAST_MATH);
  StagedLaunch S(Kernel.K, nullptr, Config);
  EXPECT_EQ(S.key().substr(0, sizeof(mstage_launch_config)), Config.bytes());
  EXPECT_EQ(S.config().bytes(), Config.bytes());
  // Each value at a 16-byte aligned offset after the configuration.
  EXPECT_EQ(S.Values[0].data() - S.key().data(), 32);
  EXPECT_EQ(S.Values[1].data() - S.key().data(), 48);
}

TEST(StagedLaunch, BackgroundCompileGetsTheConfigBack) {
  TwoSiteKernel Kernel;
  LaunchConfig Config({3, 4, 5}, {16, 8, 2}, 640, MSTAGE_LAUNCH_FAST_MATH);
  StagedLaunch S(Kernel.K, nullptr, Config);
  std::string Key(S.key()); // as the cache entry keeps it
  StagedLaunch Rebuilt(Kernel.K, Key);
  LaunchConfig Back = Rebuilt.config();
  EXPECT_EQ(Back.bytes(), Config.bytes());
  EXPECT_EQ(Back.gridDim(2), 5u);
  EXPECT_EQ(Back.blockDim(1), 8u);
  EXPECT_EQ(Back.sharedBytes(), 640u);
  EXPECT_TRUE(Back.fastMath());
  ASSERT_EQ(Rebuilt.Values.size(), 2u);
  EXPECT_EQ(valueOf<uint32_t>(Rebuilt.Values[0]), 8u);
  EXPECT_EQ(valueOf<uint64_t>(Rebuilt.Values[1]), 640u);
  EXPECT_EQ(Rebuilt.key(), S.key());
}

TEST(StagedLaunch, FastMathChangesTheKey) {
  TwoSiteKernel Kernel;
  LaunchConfig Plain({1, 1, 1}, {64, 1, 1});
  LaunchConfig Fast = Plain;
  Fast.setFastMath(true);
  StagedLaunch A(Kernel.K, nullptr, Plain), B(Kernel.K, nullptr, Fast);
  EXPECT_NE(A.key(), B.key());
  EXPECT_EQ(A.stagedBytes(), B.stagedBytes());
}

// An evaluator that gave up (2^32 loop iterations without the site) marks
// the launch, and the launch's error names the kernel and the site's line.
int gaveUp(void *const *, const mstage_launch_config *, void *) { return 1; }

TEST(StagedLaunch, EvaluatorThatGaveUpIsTheLaunchsError) {
  TwoSiteKernel Kernel;
  const mstage_evaluator_fn GivesUpSecond[] = {stageBlockY, gaveUp};
  Kernel.Record.evaluators = GivesUpSecond;
  Kernel.K.Blob.PrettyName = "main()::lambda@saxpy.cpp:9";
  Kernel.K.Blob.Location = "saxpy.cpp:9:14";
  Kernel.K.Blob.StageSites[1].Line = 12;
  Kernel.K.Blob.StageSites[1].Column = 5;
  StagedLaunch S(Kernel.K, nullptr, LaunchConfig({1, 1, 1}, {32, 1, 1}));
  ASSERT_EQ(S.GaveUp, 1);
  std::string Named, Message;
  llvm::handleAllErrors(evaluatorGaveUp(Kernel.K, uint32_t(S.GaveUp)),
                        [&](const RuntimeFailure &F) {
                          Named = F.Kernel;
                          Message = F.Message;
                        });
  EXPECT_EQ(Named, "main()::lambda@saxpy.cpp:9");
  EXPECT_EQ(Message.rfind("the host evaluator of the stage() at saxpy.cpp:12:5 "
                          "gave up after 2^32 loop iterations",
                          0),
            0u)
      << Message;
}

} // namespace
