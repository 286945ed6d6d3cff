// mstage++ compiles kernel code once, as host C++, so __CUDA_ARCH__ is never
// defined and the GPU would run the host branch: a preprocessor test of it
// (#ifdef, #ifndef, #if defined(...), #if __CUDA_ARCH__ >= ..., #elif) in
// the kernel lambda or in a function that kernel code calls is a warning at
// its line that says so and what to use instead. The same test in host code
// that no kernel reaches is not diagnosed, and the program still builds and
// runs (a warning, not an error), taking the host branch on the CPU.
// RUN: %mstagexx -O2 %s -o %t 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=OUT
#include <cstdio>
#include <mstage.hpp>

static int deviceHelper(int x) {
// CHECK: cuda-arch-in-kernel-code.cpp:[[@LINE+1]]:2: warning: mstage: kernel code tests __CUDA_ARCH__, which mstage++ never defines: kernel code is compiled once, as host C++, for the GPU and the CPU back end alike, so the GPU runs the branch written for the host; test 'mstage::on_device()' or 'mstage::device_arch() >= N' instead (mstage/device_arch.hpp), which the JIT folds for each GPU
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return x * 3;
#else
  return x * 2;
#endif
}

static int hostOnly() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

int main() {
  std::vector<int> v(4, 1);
  mstage::kernel(
      [](auto &v) {
// CHECK: cuda-arch-in-kernel-code.cpp:[[@LINE+1]]:2: warning: mstage: kernel code tests __CUDA_ARCH__
#ifdef __CUDA_ARCH__
        v[0] = 100;
// CHECK: cuda-arch-in-kernel-code.cpp:[[@LINE+1]]:2: warning: mstage: kernel code tests __CUDA_ARCH__
#elif __CUDA_ARCH__ < 300
        v[0] = 10;
#endif
// CHECK: cuda-arch-in-kernel-code.cpp:[[@LINE+1]]:2: warning: mstage: kernel code tests __CUDA_ARCH__
#ifndef __CUDA_ARCH__
        v[1] = deviceHelper(v[1]);
#endif
#ifdef __cplusplus
        v[2] = 7;
#endif
      },
      1, 1)(v);
  // OUT: host 0: 10 2 7 1
  std::printf("host %d: %d %d %d %d\n", hostOnly(), v[0], v[1], v[2], v[3]);
}
