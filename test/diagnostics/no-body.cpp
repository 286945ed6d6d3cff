// A kernel can only call functions whose body is in the translation unit.
// The error names the function and the notes trace the calls back to the
// kernel.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

float lookup(float x); // defined in another file

struct Table {
  Table(unsigned n); // defined in another file
  float first;
};

template <class T> T outer(T x);

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: no-body.cpp:[[@LINE+1]]:13: error: mstage: kernel code calls 'Table::Table', which has no definition in this translation unit; the GPU can only run functions whose body is visible here. Define it in this file or in a header it includes
    a[i] += Table(i).first;
    a[i] = outer(a[i]);
    // Unevaluated operands are not calls.
    a[i] += sizeof(lookup(1.0f));
  }, 1, 16);
  k(v);
}

static float inner(float x) {
  // CHECK: no-body.cpp:[[@LINE+1]]:10: error: mstage: kernel code calls 'lookup', which has no definition in this translation unit; the GPU can only run functions whose body is visible here. Define it in this file or in a header it includes
  return lookup(x) + 1;
}

template <class T> T outer(T x) {
  // CHECK: no-body.cpp:[[@LINE+1]]:10: note: called from 'outer<float>' here
  return inner(x) * 2;
}
// CHECK: no-body.cpp:22:12: note: called from the kernel lambda here
