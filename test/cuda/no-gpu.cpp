// With MSTAGE_BACKEND=cuda and no GPU, the first launch fails with a clear
// message that names the kernel and says what to do; nothing is copied first.
// (Without MSTAGE_BACKEND the program would run on the CPU: test/cpu.)
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cuda not --crash %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(10);
  auto k = mstage::kernel([](auto &v) { v[0] = 1; }, 1, 1);
  k(v);
}

// CHECK: what(): mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}no-gpu.cpp:14:27' cannot run: MSTAGE_BACKEND=cuda, but there is no usable GPU (cannot load the CUDA driver ({{.*}})); MSTAGE_BACKEND=cpu runs kernels on the CPU
