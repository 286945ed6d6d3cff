// Arguments an algorithm cannot take are compile errors whose message names
// the call and says what to do: host memory (std::vector), a pointer, an
// operator that is not callable with the element type, a predicate or a
// parallel_for body of the wrong arity, a const output (of a reduction
// too), an element type without < for max (named max, not "min/max").
// RUN: not %mstagexx -fsyntax-only -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not %mstagexx -fsyntax-only -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: not %mstagexx -fsyntax-only -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not %mstagexx -fsyntax-only -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=PRED
// RUN: not %mstagexx -fsyntax-only -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=FOR
// RUN: not %mstagexx -fsyntax-only -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: not %mstagexx -fsyntax-only -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=TRANSFORM
// RUN: not %mstagexx -fsyntax-only -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: not %mstagexx -fsyntax-only -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %mstagexx -fsyntax-only -DCASE=0 %s
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <string>
#include <vector>

struct text {
  char s[8];
};

int main() {
  std::vector<int> h(4);
  mstage::device_vector<int> d(4);
  const mstage::device_vector<int> &cd = d;
  mstage::device_vector<text> t(4);
  (void)h, (void)cd, (void)t;
#if CASE == 1
  // HOST: error: static assertion failed {{.*}}: mstage: sum: a std::vector is host memory; copy it into a device_vector (or pass a managed_vector) first
  // HOST: core-bad-arguments-are-compile-errors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in instantiation
  mstage::sum(h);
#elif CASE == 2
  // PTR: error: static assertion failed {{.*}}: mstage: reduce: a pointer has no size; pass a device_vector, a vector_view or an mstage::array
  mstage::reduce(d.data(), 0, std::plus<>());
#elif CASE == 3
  // OP: error: static assertion failed {{.*}}: mstage: reduce: the operator is not callable with two values of init's type, or does not return one
  mstage::reduce(d, 0, [](std::string a, std::string b) { return a; });
#elif CASE == 4
  // PRED: error: static assertion failed {{.*}}: mstage: count_if: the predicate is not callable with the view's element type
  mstage::count_if(t, [](int x) { return x > 0; });
#elif CASE == 5
  // FOR: error: static assertion failed {{.*}}: mstage: parallel_for: the body is not callable with one int index per dimension of the bounds
  mstage::parallel_for(mstage::bounds<2>{4, 4}, [](int i) {});
#elif CASE == 6
  // CONST: error: static assertion failed {{.*}}: mstage: fill: the view is read-only
  mstage::fill(cd, 1);
#elif CASE == 7
  // TRANSFORM: error: static assertion failed {{.*}}: mstage: transform: the function is not callable with the input's element type
  mstage::transform(t, d, [](int x) { return x; });
#elif CASE == 8
  // MAX: error: static assertion failed {{.*}}: mstage: max: the element type has no <
  mstage::max(t);
#elif CASE == 9
  // OUT: error: static assertion failed {{.*}}: mstage: sum: the output is read-only
  mstage::sum(d, cd);
#endif
}
