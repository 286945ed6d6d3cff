// saxpy of 1000 elements: a program so short that it ends before a
// background compile of its one specialization could.
#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  const float a = 2.5f;
  mstage::kernel(
      [a](const auto &x, auto &y) {
        auto i = mstage::Thread::get().global.x;
        if (i < x.size())
          y[i] = a * x[i] + y[i];
      },
      4, 256)(x, y);
  std::printf("short_saxpy: done\n");
}
