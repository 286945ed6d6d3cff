// std::vector<bool> stores bits and has no array to copy to the GPU: as a
// kernel argument it gives one error that says so and what to use instead,
// whether it is passed as an lvalue, as const or as a temporary.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -fsyntax-only -DARG=std::as_const(flags) %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -fsyntax-only '-DARG=std::vector<bool>(16)' %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

#ifndef ARG
#define ARG flags
#endif

int main() {
  std::vector<bool> flags(16);
  auto k = mstage::kernel([](auto a) { (void)a.size(); }, 1, 16);
  // CHECK: error: static assertion failed {{.*}}: mstage: std::vector<bool> cannot be a kernel argument: it stores its elements as bits, with no array to copy to the GPU; use std::vector<char> or std::vector<std::uint8_t>
  // CHECK: vector-bool.cpp:[[@LINE+1]]:4: note: in instantiation of
  k(ARG);
  // CHECK: 1 error generated
}
