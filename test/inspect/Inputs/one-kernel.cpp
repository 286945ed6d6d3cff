// One kernel with one stage site, for tests that take its object apart.
// Objects built with different VARIANTs hold different kernels of the same
// name; WITH_MAIN makes one of them a program.
#include <mstage.hpp>

#include <vector>

using namespace mstage;

[[gnu::used]] static void scale(std::vector<int> &v, int f) {
  kernel([f](auto &v) { v[Thread::get().global.x] *= stage(f) + VARIANT; },
         1, 32)(v);
}

#ifdef WITH_MAIN
#include <cstdio>

int main() {
  std::vector<int> V(32, 1);
  try {
    scale(V, 2);
    std::printf("v[0]=%d\n", V[0]);
  } catch (const error &E) {
    std::printf("%s\n", E.what());
  }
}
#endif
