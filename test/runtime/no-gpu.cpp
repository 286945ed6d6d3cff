// Without a GPU and without MSTAGE_ARCH, the first launch fails with a clear
// message that names the kernel and says what to do; nothing is copied first.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(10);
  auto k = mstage::kernel([](auto &v) { v[0] = 1; }, 1, 1);
  k(v);
}

// CHECK: what(): mstage: kernel 'main::lambda@{{.*}}no-gpu.cpp:13:27' cannot run: no usable GPU (cannot load the CUDA driver ({{.*}})); set MSTAGE_ARCH=sm_90 (or another sm_XY) to compile kernels to PTX without running them
