// A kernel may call a function of the program that is declared here and
// defined in another file (the runtime links its device code at launch:
// test/link), so those calls are no error here. A library function declared
// in a system header, with no body and no device version, can never run on
// the GPU: that call is an error naming the function, and the notes trace
// the calls back to the kernel.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

#include <cstdlib>

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
    a[i] += Table(i).first;
    a[i] = outer(a[i]);
    // Unevaluated operands are not calls.
    a[i] += sizeof(std::getenv("HOME"));
  }, 1, 16);
  k(v);
}

static float inner(float x) {
  // CHECK: no-body.cpp:[[@LINE+1]]:14: error: mstage: kernel code calls 'getenv', a library function that has no device version; the GPU can only run code that mstage++ compiles. Write the operation in C++ in a file compiled with mstage++
  return x + std::getenv("SCALE")[0] + lookup(x);
}

template <class T> T outer(T x) {
  // CHECK: no-body.cpp:[[@LINE+1]]:10: note: called from 'outer<float>' here
  return inner(x) * 2;
}
// CHECK: no-body.cpp:26:12: note: called from the kernel lambda here
