// Exceptions are not supported in kernels.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

float checked(float x);

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: throw.cpp:[[@LINE+1]]:5: error: mstage: exceptions are not supported in kernels; remove this 'try' block
    try {
      a[i] += 1;
    } catch (...) {
    }
    a[i] = checked(a[i]);
    // A discarded 'if constexpr' branch is not compiled.
    if constexpr (sizeof(float) != 4)
      throw 0;
  }, 1, 16);
  k(v);
}

float checked(float x) {
  if (x < 0)
    // CHECK: throw.cpp:[[@LINE+1]]:5: error: mstage: exceptions are not supported in kernels; remove this 'throw'
    throw x;
  return x;
}
// CHECK: throw.cpp:16:12: note: called from the kernel lambda here
