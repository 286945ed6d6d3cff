// In PTX-only mode streams, events, capture and graph replay compile the
// kernels (the trace shows each launch's code) and run nothing, without
// errors: the device_vector keeps what was uploaded.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::stream S;
  mstage::device_vector<int> V(64, 5);
  auto Inc = mstage::kernel(
      [](auto &V, int Add) {
        V[mstage::Thread::get().index.x] += mstage::stage(Add * 2);
      },
      1, 64);
  Inc.on(S)(V, 1);
  // CHECK: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' grid 1x1x1 block 64x1x1 {{.*}} staged {line {{[0-9]+}}: 2} cache
  mstage::event E = S.record();
  S.wait(E);
  mstage::kernel_future F = mstage::async(mstage::launch::kernel, Inc.on(S), V, 2);
  // CHECK: staged {line {{[0-9]+}}: 4} cache
  F.wait();
  mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V, 3); });
  // CHECK: staged {line {{[0-9]+}}: 6} cache
  G.launch(S);
  G.launch();
  S.synchronize();
  mstage::synchronize();
  std::printf("no errors: v %d, query %d\n", V.get(63), E.query());
  // CHECK-NOT: mstage: trace
  // CHECK: no errors: v 5, query 1
}
