// dynamic_cast and typeid need type information that is in host memory.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>
#include <typeinfo>

struct Base {
  virtual ~Base() = default;
};
struct Derived : Base {};

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    Derived d;
    Base *b = &d;
    // CHECK: rtti.cpp:[[@LINE+1]]:12: error: mstage: dynamic_cast is not supported in kernels (the type information is in host memory); use static_cast
    a[0] = dynamic_cast<Derived *>(b) != nullptr;
    // CHECK: rtti.cpp:[[@LINE+1]]:12: error: mstage: typeid is not supported in kernels (the type information is in host memory)
    a[1] = typeid(*b).name()[0];
    // A cast to a base class needs no type information.
    a[2] = dynamic_cast<Base *>(&d) != nullptr;
  }, 1, 1);
  k(v);
}
