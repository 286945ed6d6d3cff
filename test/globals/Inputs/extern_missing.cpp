// A kernel that uses an extern device_global which no file defines: the
// host linker names it, or (declared weak, so that it links) the first
// launch does.
#include <mstage.hpp>

#include <cstdio>
#include <vector>

#ifdef WEAK
extern mstage::device_global<int> nowhere __attribute__((weak));
#else
extern mstage::device_global<int> nowhere;
#endif

int main() {
  std::vector<int> x(32, 0);
  try {
    mstage::kernel(
        [](mstage::vector_view<int> x) {
          x[mstage::Thread::get().global.x] = nowhere.get();
        },
        1, 32)(x);
    mstage::synchronize();
  } catch (const mstage::error &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  std::printf("launched\n");
}
