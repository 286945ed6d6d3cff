// One of two translation units with kernels, linked into one program.
#include "multi.h"

#include <cstdio>

void scale_all(std::vector<float> &v) {
  auto k = mstage::kernel(
      [](auto &v) {
        auto i = mstage::Thread::get().global.x;
        if (i < v.size())
          v[i] *= SCALE;
      },
      1, 128);
  k(v);
}

int main() {
  std::vector<float> v(100, 1.0f);
  scale_all(v);
  shift_all(v);
  if (mstage_rt_executes() != 1) {
    std::printf("multi: PTX only\n");
    return 0;
  }
  bool ok = true;
  for (float x : v)
    ok &= x == 1.0f * SCALE + 2.0f;
  std::printf("multi: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
