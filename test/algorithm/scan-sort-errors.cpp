// Bad calls of the scans and sorts are compile errors, one per call, that
// name the exact call and say what is wrong: a host std::vector or a pointer
// instead of device memory, an operator or comparator that cannot take the
// element type, an output of another element type, a const output, keys the
// radix sort cannot order, an init of another type. The messages are those
// of the other algorithms (detail/launch.hpp's checks).
// RUN: not %mstagexx -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

struct Point {
  int x, y;
};

int main() {
  std::vector<int> host(8);
  mstage::device_vector<int> a(8), b(8);
  mstage::device_vector<float> f(8);
  const mstage::device_vector<int> c(8);
  mstage::device_vector<Point> p(8);
  // CHECK: error: static assertion failed {{.*}}: mstage: inclusive_scan: a std::vector is host memory; copy it into a device_vector (or pass a managed_vector) first
  mstage::inclusive_scan(host);
  // CHECK: error: static assertion failed {{.*}}: mstage: exclusive_scan: a pointer has no size; pass a device_vector, a vector_view or an mstage::array
  mstage::exclusive_scan(a, b.data(), 0);
  // CHECK: error: static assertion failed {{.*}}: mstage: inclusive_scan: the operator is not callable with two values of the element type, or does not return one
  mstage::inclusive_scan(a, b, [](const Point &u, const Point &v) { return u; });
  // CHECK: error: static assertion failed {{.*}}: mstage: inclusive_scan: the output's element type is not the input's
  mstage::inclusive_scan(a, f);
  // CHECK: error: static assertion failed {{.*}}: mstage: exclusive_scan: the output is read-only
  mstage::exclusive_scan(a, c, 0);
  // CHECK: error: static assertion failed {{.*}}: mstage: inclusive_scan: the view is read-only
  mstage::inclusive_scan(c);
  // CHECK: error: static assertion failed {{.*}}: mstage: exclusive_scan: init does not convert to the element type
  mstage::exclusive_scan(a, b, Point{1, 2});
  // CHECK: error: static assertion failed {{.*}}: mstage: sort: the radix sort sorts integer and floating-point keys; for other types call mstage::sort(view, comp) with a comparator
  mstage::sort(p);
  // CHECK: error: static assertion failed {{.*}}: mstage: sort_by_key: the radix sort sorts integer and floating-point keys
  mstage::sort_by_key(p, a);
  // CHECK: error: static assertion failed {{.*}}: mstage: sort: the comparator is not callable with two values of the element type, or does not return bool
  mstage::sort(a, [](const Point &u, const Point &v) { return u.x < v.x; });
  // CHECK: error: static assertion failed {{.*}}: mstage: sort: the view is read-only
  mstage::sort(c);
  // CHECK: error: static assertion failed {{.*}}: mstage: sort_by_key: the value view is read-only
  mstage::sort_by_key(a, c);
  // CHECK: error: static assertion failed {{.*}}: mstage: sort_by_key: a std::vector is host memory; copy it into a device_vector (or pass a managed_vector) first
  mstage::sort_by_key(host, a);
}
