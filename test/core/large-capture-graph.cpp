// A launch whose capture is over the kernel-parameter limit copies it to
// device memory at each launch, which a stream capture cannot record: inside
// mstage::capture it is an error naming the kernel, the capture's size and
// the limit, on the CPU back end (held to sm_90's limit) as in PTX-only
// mode; the same launch outside a capture runs.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_JIT=sync %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <array>
#include <cstdio>

using namespace mstage;

int main() {
  device_vector<float> out(256);
  std::array<float, 2048> table{};
  table[5] = 7.0f;
  auto k = kernel(
      [table](vector_view<float> out) {
        unsigned i = Thread::get().global.x;
        out[i] = table[i % 8];
      },
      2, 128);
  stream s;
  try {
    graph g = capture(s, [&] { k.on(s)(out); });
    std::printf("captured\n");
  } catch (const error &e) {
    std::printf("%s\n", e.what());
  }
  k.on(s)(out);
  s.synchronize();
  std::printf("ran\n");
}

// CHECK: mstage: kernel '{{.*}}kernel_L{{[0-9]+}}@{{.*}}large-capture-graph.cpp:24:{{.*}}' has a capture of 8192 bytes, over sm_90's kernel-parameter limit of 4352 bytes: each launch copies it to device memory, which a stream capture cannot record; launch it outside the capture, or pass the data in device memory (a view)
// CHECK-NOT: captured
// CHECK: ran
