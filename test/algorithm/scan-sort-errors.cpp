// Bad calls of the scans and sorts are compile errors that say what is
// wrong: a host std::vector instead of device memory, an operator or
// comparator that cannot take the element type, a const output, keys the
// radix sort cannot order, an init of another type.
// RUN: not %mstagexx -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>
#include <mstage/algorithm/scan.hpp>
#include <mstage/algorithm/sort.hpp>

struct Point {
  int x, y;
};

int main() {
  std::vector<int> host(8);
  mstage::device_vector<int> a(8), b(8);
  const mstage::device_vector<int> c(8);
  mstage::device_vector<Point> p(8);
  // CHECK: error: static assertion failed {{.*}}: mstage::inclusive_scan: the range must be a device_vector or a vector_view (device memory); copy a std::vector into a device_vector
  mstage::inclusive_scan(host);
  // CHECK: error: static assertion failed {{.*}}: mstage::inclusive_scan/exclusive_scan: the operator must be callable with two values of the element type and return one convertible to it
  mstage::inclusive_scan(a, b, [](const Point &u, const Point &v) { return u; });
  // CHECK: error: static assertion failed {{.*}}: mstage::inclusive_scan/exclusive_scan: the output must be a writable range of the input's element type
  mstage::exclusive_scan(a, c, 0);
  // CHECK: error: static assertion failed {{.*}}: mstage::exclusive_scan: init must be convertible to the element type
  mstage::exclusive_scan(a, b, Point{1, 2});
  // CHECK: error: static assertion failed {{.*}}: mstage::sort/sort_by_key: the radix sort sorts integer and floating-point keys; for other types call mstage::sort(range, comp) with a comparator
  mstage::sort(p);
  // CHECK: error: static assertion failed {{.*}}: mstage::sort: the comparator must be callable with two values of the element type and return bool
  mstage::sort(a, [](const Point &u, const Point &v) { return u.x < v.x; });
  // CHECK: error: static assertion failed {{.*}}: mstage::sort/sort_by_key: the range must be writable (not const)
  mstage::sort(c);
  // CHECK: error: static assertion failed {{.*}}: mstage::sort/sort_by_key: the range must be a device_vector or a vector_view (device memory); copy a std::vector into a device_vector
  mstage::sort_by_key(host, a);
}
