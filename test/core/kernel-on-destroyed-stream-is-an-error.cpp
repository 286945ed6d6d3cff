// A kernel bound to a stream with on() and launched after the stream was
// destroyed is an error that names the kernel, not a launch on freed
// memory: also when a new stream took the destroyed one's place. Recording
// an event on, capturing on, synchronizing and launching a graph on a
// destroyed stream's stream_ref are errors too. The kernel bound to a live
// stream still runs (its result against a host loop).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <optional>
#include <vector>

using namespace mstage;

template <class F> void expectError(const char *what, F f) {
  try {
    f();
    std::printf("%s: no error\n", what);
  } catch (const mstage::error &e) {
    std::printf("%s: %s\n", what, e.what());
  }
}

int main() {
  device_vector<int> d(64, 1);
  auto k = kernel([](vector_view<int> a) { a[Thread::get().global.x] += 1; },
                  1, 64);
  std::optional<mstage::stream> s(std::in_place);
  auto bound = k.on(*s);
  bound(d);
  s->synchronize();
  if (mstage_rt_executes() == 1) {
    std::vector<int> got = d.download();
    bool ok = true;
    for (int x : got)
      ok &= x == 2;
    std::printf("live stream: %s\n", ok ? "ok" : "wrong");
  } else {
    std::printf("live stream: ok\n");
  }
  stream_ref dead = *s;
  s.reset();
  expectError("launch", [&] { bound(d); });
  expectError("record", [&] { dead.record(); });
  expectError("synchronize", [&] { dead.synchronize(); });
  expectError("capture", [&] { capture(dead, [] {}); });
  // A new stream in the destroyed one's place is not the bound one.
  mstage::stream again;
  expectError("launch after a new stream", [&] { bound(d); });
  k.on(again)(d); // a kernel bound to the new stream runs
  again.synchronize();
  std::printf("new stream: ok\n");
}

// CHECK: live stream: ok
// CHECK: launch: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}kernel-on-destroyed-stream-is-an-error.cpp:{{[0-9]+}}:{{[0-9]+}}' is launched on a stream that was destroyed; a stream must outlive its use (a kernel bound to it with on(), a stream_ref to it)
// CHECK: record: mstage: recording an event on a stream that was destroyed
// CHECK: synchronize: mstage: synchronize() on a stream that was destroyed
// CHECK: capture: mstage: capture on a stream that was destroyed
// CHECK: launch after a new stream: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' is launched on a stream that was destroyed
// CHECK: new stream: ok
