// A kernel lambda must not capture by reference: the reference would point
// into host memory.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<float> v(16);
  float scale = 2, offset = 1;

  // CHECK: capture-by-ref.cpp:[[@LINE+1]]:30: error: mstage: kernel lambda captures 'scale' by reference; a reference would point into host memory. Capture it by value ([=] or [scale]) or pass it as a kernel argument
  auto k1 = mstage::kernel([&scale](mstage::vector_view<float> a) {
    a[mstage::Thread::get().global.x] *= scale;
  }, 1, 16);
  k1(v);

  // An implicit capture is reported at the lambda, with a note at the use.
  // CHECK: capture-by-ref.cpp:[[@LINE+2]]:28: error: mstage: kernel lambda captures 'offset' by reference; a reference would point into host memory. Capture it by value ([=] or [offset]) or pass it as a kernel argument
  // CHECK: capture-by-ref.cpp:[[@LINE+2]]:42: note: 'offset' is captured because it is used here
  auto k2 = mstage::kernel([&](mstage::vector_view<float> a) {
    a[mstage::Thread::get().global.x] += offset;
  }, 1, 16);
  k2(v);
}
