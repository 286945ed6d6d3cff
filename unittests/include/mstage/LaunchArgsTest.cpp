//===- LaunchArgsTest.cpp - Tests of the argument-aliasing rules ----------===//
//
// kernel.hpp's launch_args: a host object passed as several arguments of one
// launch (k(v, v), k(v, std::as_const(v))) is one entry, so its arguments
// share one device copy, copied back once if any of them may write it, and
// one MSTAGE_CHECK=cpu snapshot, compared by one argument.
//
//===----------------------------------------------------------------------===//
#include "mstage/kernel.hpp"

#include "gtest/gtest.h"

#include <vector>

using mstage::detail::argument;
using mstage::detail::launch_args;
using mstage::detail::shared_snapshot;

namespace {

struct Args {
  launch_args::shared Objects[8];
  launch_args L{mstage::stream_ref(nullptr), Objects};
};

TEST(LaunchArgs, OneEntryPerObject) {
  Args A;
  int X = 0, Y = 0;
  bool First = false;
  launch_args::shared &E1 = A.L.use(&X, false, &First);
  EXPECT_TRUE(First);
  EXPECT_EQ(E1.object, &X);
  EXPECT_FALSE(E1.written);
  EXPECT_EQ(E1.device, nullptr);
  launch_args::shared &E2 = A.L.use(&Y, false, &First);
  EXPECT_TRUE(First);
  EXPECT_NE(&E1, &E2);
  // X again: the same entry, not a new one.
  launch_args::shared &E3 = A.L.use(&X, false, &First);
  EXPECT_FALSE(First);
  EXPECT_EQ(&E3, &E1);
  EXPECT_EQ(A.Objects[2].object, nullptr); // no third entry was made
}

TEST(LaunchArgs, WrittenIfAnyArgumentMayWrite) {
  // const then non-const, non-const then const, const twice.
  Args A;
  int X = 0, Y = 0, Z = 0;
  A.L.use(&X, false);
  EXPECT_TRUE(A.L.use(&X, true).written);
  A.L.use(&Y, true);
  EXPECT_TRUE(A.L.use(&Y, false).written);
  A.L.use(&Z, false);
  EXPECT_FALSE(A.L.use(&Z, false).written);
  EXPECT_TRUE(A.Objects[0].written);
  EXPECT_TRUE(A.Objects[1].written);
  EXPECT_FALSE(A.Objects[2].written);
}

TEST(LaunchArgs, TheDeviceCopyIsTheFirstArguments) {
  // What a later argument of the same object finds is what the first one
  // stored.
  Args A;
  std::vector<int> V(4);
  int Device = 0;
  bool First;
  A.L.use(&V, true, &First).device = &Device;
  ASSERT_TRUE(First);
  EXPECT_EQ(A.L.use(&V, false, &First).device, &Device);
  EXPECT_FALSE(First);
}

TEST(LaunchArgs, AdjacentObjectsAreDistinct) {
  // Objects are told apart by address only: two vectors next to each other
  // are two entries, whatever their contents.
  Args A;
  std::vector<int> Two[2] = {{1, 2}, {1, 2}};
  bool First;
  A.L.use(&Two[0], false, &First);
  A.L.use(&Two[1], false, &First);
  EXPECT_TRUE(First);
  EXPECT_EQ(A.Objects[1].object, &Two[1]);
}

TEST(LaunchArgs, CopyOutOnlyForNonConstLvalues) {
  using V = std::vector<int>;
  EXPECT_TRUE(argument<V &>::copy_out);
  EXPECT_FALSE(argument<const V &>::copy_out);
  EXPECT_FALSE(argument<V &&>::copy_out);
  EXPECT_FALSE(argument<const V>::copy_out);
  static_assert(
      std::is_same_v<argument<V &>::device_type, mstage::vector_view<int>>);
  static_assert(std::is_same_v<argument<const V &>::device_type,
                               mstage::vector_view<const int>>);
}

TEST(LaunchArgs, OneSnapshotComparedOnce) {
  Args A;
  std::vector<int> V = {1, 2, 3};
  launch_args::shared &E = A.L.use(&V, false);
  shared_snapshot<int> First, Second;
  int Takes = 0;
  auto Take = [&](std::vector<int> &Out) {
    ++Takes;
    Out = V;
  };
  int *P1 = First.get(E, Take);
  int *P2 = Second.get(A.L.use(&V, true), Take);
  EXPECT_EQ(Takes, 1);
  EXPECT_EQ(P1, P2);
  EXPECT_EQ(P1[2], 3);
  // The first argument took it and compares it, as V is written by one of
  // its arguments; the second does not.
  EXPECT_TRUE(First.compares(E));
  EXPECT_FALSE(Second.compares(E));
  // (divergence() asks the runtime which back end runs: not called here.)
  std::vector<int> Gpu = {1, 2, 4};
  EXPECT_EQ(Second.divergence(E, Gpu.data(), Gpu.size()), "");
  // Read-only objects are not compared.
  Args B;
  launch_args::shared &R = B.L.use(&V, false);
  shared_snapshot<int> Only;
  Only.get(R, Take);
  EXPECT_FALSE(Only.compares(R));
}

} // namespace
