// On the CPU back end work runs as it is enqueued: an event is complete as
// soon as it is recorded (query() is true before any synchronization), the
// time between two is the host's, a future is ready when async() returns,
// waits are no-ops, and native handles are null. An event that was never
// recorded is complete, and elapsed_ms() with it throws.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::stream S;
  mstage::device_vector<int> V(256, 0);
  auto Inc = mstage::kernel(
      [](auto &V) { V[mstage::Thread::get().global.x] += 1; }, 2, 128);
  mstage::event Start = S.record();
  for (int I = 0; I < 10; ++I)
    Inc.on(S)(V);
  mstage::event End = S.record();
  std::printf("query %d %d\n", Start.query(), End.query());
  // CHECK: query 1 1
  float Ms = mstage::elapsed_ms(Start, End);
  std::printf("elapsed >= 0: %d\n", Ms >= 0);
  // CHECK: elapsed >= 0: 1
  mstage::current_stream().wait(End);
  End.synchronize();
  mstage::kernel_future F = mstage::async(mstage::launch::kernel, Inc.on(S), V);
  std::printf("future ready %d valid %d\n", F.ready(), F.valid());
  // CHECK: future ready 1 valid 1
  F.get();
  std::printf("v %d, valid after get %d\n", V.get(255), F.valid());
  // CHECK: v 11, valid after get 0
  std::printf("native handles: stream %p, current %p, event %p\n",
              (void *)S.native_handle(),
              (void *)mstage::current_stream().native_handle(),
              (void *)End.native_handle());
  // CHECK: native handles: stream (nil), current (nil), event (nil)

  mstage::event Never;
  std::printf("never recorded: query %d\n", Never.query());
  // CHECK: never recorded: query 1
  Never.synchronize();
  S.wait(Never);
  try {
    mstage::elapsed_ms(Start, Never);
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  // CHECK: mstage: elapsed_ms: an event was never recorded
}
