// Launches one kernel once per value on the command line, each value a
// specialization of its own, for the cache lock tests:
//   lock_probe V1 [V2 ...]
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>

static void launch(int Value) {
  int *Out = nullptr; // never dereferenced in PTX-only mode
  auto K = mstage::kernel(
      [Value](int *Out) {
        int S = mstage::stage(Value);
        if (Out)
          Out[mstage::Thread::get().global.x] = S;
      },
      4, 64);
  K(Out);
}

int main(int argc, char **argv) {
  try {
    for (int I = 1; I < argc; ++I)
      launch(std::atoi(argv[I]));
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
  std::printf("lock_probe: done\n");
}
