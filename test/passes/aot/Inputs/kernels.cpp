// Two kernels: one whose staged values are read in a helper function (and
// one of them is 32-byte aligned), one without stage sites.
#include <mstage.hpp>
#include <vector>

struct alignas(32) Coeffs {
  float a, b;
};

// Not inlined into the kernel's body by hand: the staged value reaches it
// as an argument.
static float apply(const Coeffs &c, float x) { return c.a * x + c.b; }

int main() {
  std::vector<float> v(64, 1.0f);
  int n = 64;
  Coeffs c{2.0f, 1.0f};
  mstage::kernel(
      [n, c](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < (unsigned)mstage::stage(n))
          v[i] = apply(mstage::stage(c), v[i]);
      },
      1, 64)(v);
  mstage::kernel(
      [](auto &v) { v[mstage::Thread::get().global.x] += 1.0f; }, 1, 64)(v);
  return v[0] == 4.0f ? 0 : 1;
}
