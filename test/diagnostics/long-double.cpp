// 'long double' has no GPU equivalent.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

struct Wide {
  long double value;
};

float narrow(long double x);

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: long-double.cpp:[[@LINE+1]]:17: error: mstage: 'long double' is not supported in kernels; use double
    long double acc = a[i];
    // CHECK: long-double.cpp:[[@LINE+1]]:17: error: mstage: 'long double' is not supported in kernels; use double
    a[i] = a[i] * 2.0L;
    // CHECK: long-double.cpp:[[@LINE+1]]:10: error: mstage: 'long double' is not supported in kernels; use double
    Wide w{};
    // CHECK: long-double.cpp:[[@LINE+1]]:20: error: mstage: 'long double' is not supported in kernels; use double
    a[i] += narrow(a[i]);
    // sizeof is not evaluated.
    a[i] += sizeof(long double);
  }, 1, 16);
  k(v);
}

// CHECK: long-double.cpp:[[@LINE+1]]:26: error: mstage: 'long double' is not supported in kernels; use double
float narrow(long double x) { return float(x); }
// CHECK: long-double.cpp:22:13: note: called from the kernel lambda here
