// A staged copy from one view into another, as bench/mstage_transpose.cpp's
// copy kernel: four loads, each after a store through the other view.
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<float> In(256, 2.0f), Out(256, 0.0f);
  int Width = 64;
  mstage::kernel(
      [Width](auto &Out, const auto &In) {
        int W = mstage::stage(Width);
        unsigned X = mstage::Thread::get().global.x;
        for (int J = 0; J < 4; ++J)
          Out[J * W + X] = In[J * W + X];
      },
      1, 64)(Out, In);
  for (float F : Out)
    if (F != 2.0f)
      return 1;
  return 0;
}
