// Inside a kernel, lambdas may capture by reference (the captured variables
// live on the GPU too); generic lambdas are checked as instantiated.
// RUN: %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error:
#include <mstage.hpp>

int main() {
  std::vector<float> v(16);
  float scale = 2; // captured by value below
  auto k = mstage::kernel([=](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    float acc = 0;
    auto add = [&](float x) { acc += x * scale; };
    auto twice = [](auto f, auto x) { f(x); f(x); };
    auto square = [](auto x) { return x * x; };
    twice(add, a[i]);
    add(square(a[i]));
    add(float(square(3)));
    auto nested = [&] {
      auto inner = [&acc](float y) { acc -= y; };
      inner(1.0f);
    };
    nested();
    a[i] = acc;
  }, 1, 16);
  k(v);

  // The kernel lambda itself may be generic and mutable.
  auto k2 = mstage::kernel([scale](auto a) mutable {
    scale += 1;
    a[mstage::Thread::get().global.x] *= scale;
  }, 1, 16);
  k2(v);
}
