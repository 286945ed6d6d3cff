// Kernels have no dynamic stack allocation: __builtin_alloca, alloca and
// variable-length arrays in kernel code are errors at their place. Arrays
// of a constant size are fine.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <alloca.h>
#include <mstage.hpp>

template <int N> int fixed(int x) {
  int buf[N] = {};
  buf[x % N] = x;
  return buf[0];
}

int main() {
  std::vector<int> v(16);
  auto k = mstage::kernel([](mstage::vector_view<int> a) {
    // CHECK: dynamic-alloca.cpp:[[@LINE+1]]:21: error: mstage: dynamic stack allocation ('__builtin_alloca') is not supported in kernels; use an array whose size is a compile-time constant
    int *p = (int *)__builtin_alloca(a[0] * sizeof(int));
    // CHECK: dynamic-alloca.cpp:[[@LINE+2]]:21: error: mstage: dynamic stack allocation ('__builtin_alloca') is not supported in kernels
    // CHECK: note: expanded from macro 'alloca'
    int *q = (int *)alloca(a[1]);
    // CHECK: dynamic-alloca.cpp:[[@LINE+1]]:9: error: mstage: dynamic stack allocation (a variable-length array) is not supported in kernels
    int vla[a[2]];
    vla[0] = p[0] = q[0] = 1;
    a[3] = vla[0] + fixed<8>(a[4]);
  }, 1, 16);
  k(v);
}
