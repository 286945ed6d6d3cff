// Three kernels whose device modules each define the same local names: the
// helper scale(), libdevice's __nv_expf, the printf format string. Their
// generic code is compiled kernel by kernel and joined into one PTX module.
#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

[[gnu::noinline]] static float scale(float x, float f) {
  return std::exp(x) * f;
}

int main() {
  std::vector<float> v(64, 1.0f);
  float f = 2.0f;
  mstage::kernel(
      [f](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        v[i] = scale(v[i], mstage::stage(f));
        if (i == 0)
          printf("first %f\n", double(v[i]));
      },
      1, 64)(v);
  mstage::kernel(
      [](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        v[i] = scale(v[i], 0.5f);
        if (i == 0)
          printf("first %f\n", double(v[i]));
      },
      1, 64)(v);
  mstage::kernel(
      [](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        v[i] = scale(v[i], 3.0f) + scale(v[i], 1.0f);
      },
      1, 64)(v);
  return 0;
}
