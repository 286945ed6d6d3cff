// Capturing a stream that is already being captured throws an mstage::error
// naming the stream; the exception leaves the outer capture, which is
// discarded, and the stream then runs launches again and can be captured.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::stream S;
  mstage::device_vector<int> V(8, 0);
  auto Inc = mstage::kernel(
      [](auto &V) { V[mstage::Thread::get().index.x] += 1; }, 1, 8);
  try {
    mstage::graph Outer = mstage::capture(S, [&] {
      Inc.on(S)(V);
      mstage::graph Inner = mstage::capture(S, [&] { Inc.on(S)(V); });
    });
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  // CHECK: mstage: capture: stream {{[0-9]+}} is already being captured
  std::printf("after: v %d\n", V.get(0));
  // CHECK: after: v 0
  Inc.on(S)(V);
  S.synchronize();
  std::printf("a launch: v %d\n", V.get(0));
  // CHECK: a launch: v 1
  mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V); });
  G.launch(S);
  G.launch(S);
  std::printf("captured again, 2 replays: v %d\n", V.get(0));
  // CHECK: captured again, 2 replays: v 3
  try {
    if (mstage_rt_capture_end(S.get(), nullptr) != 0)
      throw mstage::error(mstage_rt_last_error());
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  // CHECK: mstage: capture: stream {{[0-9]+}} is not being captured
}
