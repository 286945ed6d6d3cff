// A plain function (or a pointer to one) given to kernel() is a compile-time
// error that says to wrap it in a lambda: its address is a host address,
// which a launch cannot call (each launch failed with a "pointer into host
// memory" error). The wrapped function compiles.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FUNC --implicit-check-not=error:
// RUN: not %mstagexx -fsyntax-only -DPOINTER %s 2>&1 | FileCheck %s --check-prefixes=CHECK,PTR --implicit-check-not=error:
// RUN: %mstagexx -fsyntax-only -DWRAPPED %s
#include <mstage.hpp>

void twice(int *p) { p[mstage::Thread::get().global.x] *= 2; }

int main() {
  mstage::device_vector<int> v(32, 1);
#if defined(WRAPPED)
  mstage::kernel([](auto... a) { twice(a...); }, 1, 32)(v.data());
#elif defined(POINTER)
  void (*f)(int *) = twice;
  // PTR: error: static assertion failed {{.*}}: mstage: kernel() takes a lambda or a function object, not a function: the GPU cannot call a host function's address; wrap it in a lambda: kernel([](auto... a) { f(a...); }, grid, block)
  // PTR: function-as-kernel.cpp:[[@LINE+1]]:11: note: in instantiation of
  mstage::kernel(f, 1, 32)(v.data());
#else
  // FUNC: error: static assertion failed {{.*}}: mstage: kernel() takes a lambda or a function object, not a function: the GPU cannot call a host function's address; wrap it in a lambda: kernel([](auto... a) { f(a...); }, grid, block)
  // FUNC: function-as-kernel.cpp:[[@LINE+1]]:11: note: in instantiation of
  mstage::kernel(twice, 1, 32)(v.data());
#endif
  // CHECK: 1 error generated
}
