// A kernel calling lookup(), which missing_lib.cpp defines.
#include <mstage.hpp>

#include <cstdio>
#include <vector>

int lookup(int i);

int main() {
  std::vector<int> V(8);
  try {
    mstage::kernel(
        [](mstage::vector_view<int> V) {
          unsigned I = mstage::Thread::get().global.x;
          V[I] = lookup(int(I));
        },
        1, 8)(V);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
  std::printf("launched\n");
  return 0;
}
