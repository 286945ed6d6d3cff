// Inline assembly is written for the host's instruction set; the GPU cannot
// run it. Every asm statement in kernel code is an error at its place, also
// in a function the kernel calls.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

static int twice(int x);

int main() {
  std::vector<int> v(16);
  auto k = mstage::kernel([](mstage::vector_view<int> a) {
    unsigned i = mstage::Thread::get().global.x;
    int r;
    // CHECK: inline-asm.cpp:[[@LINE+1]]:5: error: mstage: inline assembly is not supported in kernels; write the operation in C++
    asm volatile("movl %1, %0" : "=r"(r) : "r"(a[i]));
    a[i] = twice(r);
  }, 1, 16);
  k(v);
  // Host code keeps its assembly.
  int r;
  asm("movl $1, %0" : "=r"(r));
  return r - 1;
}

static int twice(int x) {
  int r;
  // CHECK: inline-asm.cpp:[[@LINE+1]]:3: error: mstage: inline assembly is not supported in kernels; write the operation in C++
  __asm__("leal (%1,%1), %0" : "=r"(r) : "r"(x));
  return r;
}
// CHECK: inline-asm.cpp:16:12: note: called from the kernel lambda here
