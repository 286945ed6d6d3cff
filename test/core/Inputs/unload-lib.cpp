// A shared library with one kernel, built twice (liba, libb) with a different
// FACTOR: same size and layout, so that the second may be loaded at the
// first one's address.
#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace mstage;

static auto times(unsigned Grid) {
  return kernel(
      [](auto &v) {
        auto i = Thread::get().global.x;
        v[i] = FACTOR * int(i);
      },
      Grid, 8);
}

// Launches the kernel into Out (8 ints), then once with an empty grid, whose
// error (naming the kernel) goes to Error.
extern "C" void lib_run(int *Out, char *Error, size_t ErrorSize) {
  std::vector<int> V(8, -1);
  times(1)(V);
  std::memcpy(Out, V.data(), 8 * sizeof(int));
  try {
    times(0)(V);
    std::snprintf(Error, ErrorSize, "no error");
  } catch (const error &E) {
    std::snprintf(Error, ErrorSize, "%s", E.what());
  }
}
