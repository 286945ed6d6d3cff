// A kernel calling gain(), which gain_lib.cpp defines with another type.
#include <mstage.hpp>

#include <cstdio>
#include <vector>

extern "C" float gain(float x);

int main() {
  std::vector<float> V(8, 1.0f);
  try {
    mstage::kernel(
        [](mstage::vector_view<float> V) {
          unsigned I = mstage::Thread::get().global.x;
          V[I] = gain(V[I]);
        },
        1, 8)(V);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
  std::printf("launched\n");
  return 0;
}
