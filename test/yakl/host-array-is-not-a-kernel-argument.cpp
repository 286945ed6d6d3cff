// Careless uses of YAKL's arrays are compile errors that say what to do: a
// host array given to a kernel or captured by a kernel lambda (the plugin
// names the capture) or by a parallel_for body, or given to an algorithm; a slice whose colons are not the fastest dimensions (it would
// not be contiguous); a slice with the wrong count of colons; a wrong
// parallel_for option. CASE 0 compiles the right spellings.
// RUN: not %mstagexx -fsyntax-only -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not %mstagexx -fsyntax-only -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=CAPTURE
// RUN: not %mstagexx -fsyntax-only -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=FOR
// RUN: not %mstagexx -fsyntax-only -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=ALGO
// RUN: not %mstagexx -fsyntax-only -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=SLICE
// RUN: not %mstagexx -fsyntax-only -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=COLONS
// RUN: not %mstagexx -fsyntax-only -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: %mstagexx -fsyntax-only -DCASE=0 %s
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

int main() {
  mstage::host_array<float, 2> h("h", 3, 4);
  mstage::array<float, 3> a("a", 2, 3, 4);
  (void)h, (void)a;
#if CASE == 1
  // ARG: error: static assertion failed {{.*}}: mstage: an mstage::host_array cannot be a kernel argument: its elements are in host memory; pass its create_device_copy() (an mstage::array)
  mstage::kernel([](mstage::array_view<float, 2>) {}, 1, 1)(h);
#elif CASE == 2
  // CAPTURE: host-array-is-not-a-kernel-argument.cpp:[[@LINE+2]]:{{[0-9]+}}: error: mstage: kernel lambda captures 'h' by value, but its type {{.*}}host_space{{.*}} is not trivially copyable
  // CAPTURE: note: 'h' is captured because it is used here
  mstage::kernel([=] { h(0, 0) = 1; }, 1, 1)();
#elif CASE == 7
  // FOR: error: static assertion failed {{.*}}: mstage: parallel_for: the operator is copied into a kernel: it must capture only trivially copyable values
  mstage::parallel_for(3, [=](int i) { h(i, 0) = 1; });
#elif CASE == 3
  // ALGO: error: static assertion failed {{.*}}: mstage: sum: takes a device_vector, a managed_vector, a vector_view or an mstage::array
  mstage::sum(h);
#elif CASE == 4
  // SLICE: error: static assertion failed {{.*}}: mstage::array::slice: the colons must be the fastest dimensions (the last in C order, the first in Fortran order), so that the slice is contiguous
  (void)a.slice<1>(mstage::colon, 1, 2);
#elif CASE == 5
  // COLONS: error: static assertion failed {{.*}}: mstage::array::slice<R>: give R mstage::colon
  (void)a.slice<2>(0, 1, mstage::colon);
#elif CASE == 6
  // OPTION: error: static assertion failed {{.*}}: mstage: parallel_for: the options after the body are mstage::first_fastest, mstage::last_fastest and mstage::b4b
  mstage::parallel_for(3, [](int) {}, 256);
#else
  auto s = a.slice<2>(1, mstage::colon, mstage::colon);
  auto av = s.view();
  mstage::parallel_for("label", mstage::bounds<2>{{0, 2, 2}, 4},
                       [=](int j, int i) { av(j, i) = 0; }, mstage::b4b,
                       mstage::first_fastest);
  mstage::array<float, 2> d = h.create_device_copy();
  mstage::host_array<float, 1> back = d.reshape(12).create_host_copy();
  (void)back;
#endif
  return 0;
}
