//===- variant.cpp - GPU suite: std::variant and std::visit in kernels ----===//
//
// Issue 37, item 3, against host references:
//  - shapes as a std::variant, their areas by std::visit over an overload
//    set, std::get_if and holds_alternative, and a CRTP base in place of a
//    virtual call: the same values as the host loop;
//  - in a child process std::get of the wrong alternative (the library's
//    throwing path) stops the launch with the device's message naming
//    bad_variant_access and CUDA_ERROR_ASSERT naming the kernel. On the CPU
//    back end the library throws on the host; the child is not run there.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

namespace {

constexpr const char *Name = "variant";

struct Circle {
  float r;
};
struct Rect {
  float w, h;
};
using Shape = std::variant<Circle, Rect>;

template <class... F> struct overloaded : F... {
  using F::operator()...;
};
template <class... F> overloaded(F...) -> overloaded<F...>;

template <class D> struct Scaled {
  float of(float x) const { return static_cast<const D &>(*this).k() * x; }
};
struct Half : Scaled<Half> {
  float k() const { return 0.5f; }
};

float value(unsigned i) {
  Shape s = i % 2 ? Shape(Circle{float(i % 5)}) : Shape(Rect{float(i % 3), 2.f});
  float a = std::visit(overloaded{[](Circle c) { return 3.f * c.r * c.r; },
                                  [](Rect r) { return r.w * r.h; }},
                       s);
  if (const Rect *r = std::get_if<Rect>(&s))
    a += r->h;
  return Half{}.of(a) + (std::holds_alternative<Circle>(s) ? 100.f : 0.f);
}

int child() {
  std::vector<float> v(2);
  mstage::kernel(
      [](mstage::vector_view<float> v) {
        unsigned i = mstage::Thread::get().global.x;
        Shape s = i ? Shape(Circle{1.f}) : Shape(Rect{1.f, 1.f});
        v[i] = std::get<Rect>(s).w;
      },
      1, 2)(v);
  mstage::synchronize();
  return 0;
}

int run(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--child")
    return child();
  if (skipWithoutGpu(Name))
    return 0;
  constexpr unsigned N = 10000;
  std::vector<float> out(N);
  mstage::kernel(
      [](mstage::vector_view<float> out) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < out.size())
          out[i] = value(i);
      },
      (N + 255) / 256, 256)(out);
  for (unsigned i = 0; i < N; ++i)
    if (out[i] != value(i)) {
      std::printf("FAIL %s: %u: %g, host %g\n", Name, i, out[i], value(i));
      return 1;
    }
  if (!onCpu()) {
    ChildResult C = runThisProgram({"--child"});
    std::vector<std::string> Want = {"kernel code threw",
                                     "bad_variant_access", "CUDA_ERROR_ASSERT",
                                     "mstage: kernel '(anonymous namespace)::child::kernel_L"};
    if (!childFailedSaying(Name, C, Want))
      return 1;
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  return runSuiteProgram(Name, run, Argc, Argv);
}
