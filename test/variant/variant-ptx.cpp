// std::variant in device code: std::visit over an overload set compiles to
// branches on the index (no call of a host function left), and std::get of
// the wrong alternative, whose library path throws bad_variant_access,
// becomes __assertfail with what was thrown and a trap; ptxas accepts both.
// A throw in the program's own kernel code is still a compile error
// (test/diagnostics/throw.cpp).
//
// RUN: %mstagexx -std=c++17 -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --grid 1 --block 32 > %t.visit.ptx
// RUN: FileCheck %s --check-prefix=VISIT --implicit-check-not=__cxa --implicit-check-not=.extern < %t.visit.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L52 --grid 1 --block 32 > %t.get.ptx
// RUN: FileCheck %s --check-prefix=GET --implicit-check-not=__cxa < %t.get.ptx
// RUN: %ptxas -arch=sm_90 %t.visit.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.get.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>

#include <variant>
#include <vector>

struct A {
  int x;
};
struct B {
  float y;
};
template <class... F> struct overloaded : F... {
  using F::operator()...;
};
template <class... F> overloaded(F...) -> overloaded<F...>;

// VISIT: .entry
// VISIT: cvt.rn.f32.{{[su]}}32
// VISIT: selp.f32
// GET-DAG: .extern .func __assertfail
// GET-DAG: .global .align 1 .b8 {{.*}}[{{[0-9]+}}] = {109, 115, 116, 97, 103, 101, 58, 32, 107, 101, 114, 110, 101, 108, 32, 99, 111, 100, 101, 32, 116, 104, 114, 101, 119
// GET: trap
int main() {
  std::vector<float> v(32);
  mstage::kernel(
      [](mstage::vector_view<float> v) {
        unsigned i = mstage::Thread::get().global.x;
        std::variant<A, B> s = i % 2 ? std::variant<A, B>(A{int(i)})
                                     : std::variant<A, B>(B{float(i)});
        v[i] = std::visit(overloaded{[](A a) { return float(a.x); },
                                     [](B b) { return b.y * 2; }},
                          s);
      },
      1, 32)(v);
  mstage::kernel(
      [](mstage::vector_view<float> v) {
        unsigned i = mstage::Thread::get().global.x;
        std::variant<A, B> s = i % 2 ? std::variant<A, B>(A{int(i)})
                                     : std::variant<A, B>(B{float(i)});
        v[i] = std::get<B>(s).y;
      },
      1, 32)(v);
}
