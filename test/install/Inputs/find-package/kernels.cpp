// The second translation unit of the program, with a kernel of its own.
#include <mstage.hpp>

#include <vector>

void shift(std::vector<float> &V) {
  auto K = mstage::kernel(
      [](auto &V) {
        auto I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += 2.0f;
      },
      1, 128);
  K(V);
}
