// Virtual calls need the vtable, which is in host memory.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

struct Shape {
  virtual float area() const { return 0; }
};
struct Square final : Shape {
  float side = 1;
  float area() const override { return side * side; }
};

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    Square sq;
    const Shape *shape = &sq;
    // CHECK: virtual-call.cpp:[[@LINE+1]]:19: error: mstage: virtual call to 'Shape::area' in a kernel; the vtable is in host memory. Make the call non-virtual (qualify it as Class::method or make the class final)
    a[0] = shape->area();
    // Calls whose target is known are not virtual.
    a[1] = sq.area() + shape->Shape::area();
  }, 1, 1);
  k(v);
}
