// The second translation unit, with its own kernel.
#include "multi.h"

void shift_all(std::vector<float> &v) {
  auto k = mstage::kernel(
      [](auto &v) {
        auto i = mstage::Thread::get().global.x;
        if (i < v.size())
          v[i] += 2.0f;
      },
      1, 128);
  k(v);
}
