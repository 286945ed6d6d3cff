// shared_memory<T> and dynamic_shared<T>() start at the dynamic region,
// which is 16-byte aligned: a T that needs more is a compile error that says
// to take it from a shared_arena, and shared_bytes_for needs one count per
// type.
// (The errors come in instantiation order, hence CHECK-DAG.)
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s
#include <mstage.hpp>

struct alignas(32) Wide {
  float v[8];
};

int main() {
  std::vector<float> v(16);
  mstage::kernel(
      [](mstage::vector_view<float> v) {
        // CHECK-DAG: error: static assertion failed{{.*}}shared_memory<T>: T must not need more than 16-byte alignment; take it from a shared_arena
        mstage::shared_memory<Wide> a;
        v[0] = a[0].v[0];
      },
      1, 1)(v);
  mstage::kernel(
      [](mstage::vector_view<float> v) {
        // CHECK-DAG: error: static assertion failed{{.*}}mstage::dynamic_shared<T>: T needs more than 16-byte alignment; take it from a shared_arena
        auto b = mstage::dynamic_shared<Wide>();
        v[0] = b[0].v[0];
      },
      1, 1)(v);
  // CHECK-DAG: error: static assertion failed{{.*}}mstage::shared_bytes_for<T...>(n...): one count per type
  // CHECK: 3 errors generated.
  return int(mstage::shared_bytes_for<float, double>(4));
}
