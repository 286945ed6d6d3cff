// With MSTAGE_ARCH and no GPU, launches are compiled and dumped (PTX and JSON,
// once: the second launch reuses the code), nothing runs, and stderr says so in
// one line, once. Bad launch configurations are rejected, with the kernel.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 2>&1 | FileCheck %s
// RUN: ls %t.dump | count 2
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(10, 7);
  auto k = mstage::kernel([](auto &v) { v[0] += 1; }, 1, 32);
  k(v);
  k(v);
  std::printf("executes=%d v0=%d\n", mstage_rt_executes(), v[0]);
  try {
    mstage::kernel([](auto &v) { v[0] = 2; }, 1, 2048)(v);
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
  try {
    mstage::kernel([](auto &v) { v[0] = 2; }, {0, 1, 1}, 32)(v);
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}

// CHECK: mstage: no GPU ({{.*}}); compiling kernels for sm_90 to PTX only, nothing is executed
// CHECK-NOT: mstage: no GPU
// CHECK: executes=0 v0=7
// CHECK-NEXT: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}ptx-only.cpp:21:20' has block.x 2048, over sm_90's limit of 1024
// CHECK-NEXT: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}ptx-only.cpp:26:20' has an empty launch configuration (grid 0x1x1, block 32x1x1)
