// std::variant and std::visit in kernel code, in place of virtual calls
// (shapes as a variant, an overload set and a CRTP base), on the CPU back end
// against the same functions run as a host loop; std::get and
// std::holds_alternative too.
//
// RUN: %mstagexx -std=c++17 -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// RUN: %mstagexx -std=c++17 -O0 %s -o %t.O0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t.O0 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <variant>
#include <vector>

struct Circle {
  float r;
};
struct Rect {
  float w, h;
};
struct Triangle {
  float b, h;
};
using Shape = std::variant<Circle, Rect, Triangle>;

template <class... F> struct overloaded : F... {
  using F::operator()...;
};
template <class... F> overloaded(F...) -> overloaded<F...>;

static float area(const Shape &s) {
  return std::visit(overloaded{[](const Circle &c) { return 3.14159f * c.r * c.r; },
                               [](const Rect &r) { return r.w * r.h; },
                               [](const Triangle &t) { return 0.5f * t.b * t.h; }},
                    s);
}

// CRTP: the static polymorphism of the thesis, resolved at compile time.
template <class D> struct Scaler {
  float apply(float x) const { return static_cast<const D &>(*this).k() * x; }
};
struct Twice : Scaler<Twice> {
  float k() const { return 2.f; }
};

static Shape make(unsigned i) {
  float f = float(i % 7) + 1.f;
  switch (i % 3) {
  case 0:
    return Circle{f};
  case 1:
    return Rect{f, f + 1};
  default:
    return Triangle{f, 2 * f};
  }
}

static float value(unsigned i) {
  Shape s = make(i);
  float a = area(s);
  if (std::holds_alternative<Rect>(s))
    a += std::get<Rect>(s).w;
  if (auto *t = std::get_if<Triangle>(&s))
    a -= t->b;
  return Twice{}.apply(a) + float(s.index());
}

int main() {
  constexpr unsigned N = 3000;
  std::vector<float> out(N), ref(N);
  mstage::kernel(
      [](mstage::vector_view<float> out) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < out.size())
          out[i] = value(i);
      },
      (N + 127) / 128, 128)(out);
  for (unsigned i = 0; i < N; ++i)
    ref[i] = value(i);
  // CHECK: equal 1
  std::printf("equal %d\n", out == ref);
}
