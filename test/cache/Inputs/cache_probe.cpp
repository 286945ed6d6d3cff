// Launches one kernel with what the command line says, for the cache tests:
//   cache_probe [--stage V] [--grid G] [--block B] [--shared S]
//               [--threads T] [--repeat R] [--count-allocations]
// --threads launches from T host threads at once, each R times.
// --count-allocations prints how many heap allocations the last launch made.
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

// Counts this thread's allocations only: the runtime's compile pool (its
// warm-up compile) may allocate meanwhile.
static thread_local long Allocations = 0;
void *operator new(std::size_t N) {
  ++Allocations;
  if (void *P = std::malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete(void *P, std::size_t) noexcept { std::free(P); }

int main(int argc, char **argv) {
  int Stage = 7, Threads = 1, Repeat = 1;
  unsigned Grid = 4, Block = 64, Shared = 0;
  bool CountAllocations = false;
  for (int I = 1; I < argc; ++I) {
    auto Next = [&] { return I + 1 < argc ? std::atoi(argv[++I]) : 0; };
    if (!std::strcmp(argv[I], "--stage"))
      Stage = Next();
    else if (!std::strcmp(argv[I], "--grid"))
      Grid = Next();
    else if (!std::strcmp(argv[I], "--block"))
      Block = Next();
    else if (!std::strcmp(argv[I], "--shared"))
      Shared = Next();
    else if (!std::strcmp(argv[I], "--threads"))
      Threads = Next();
    else if (!std::strcmp(argv[I], "--repeat"))
      Repeat = Next();
    else if (!std::strcmp(argv[I], "--count-allocations"))
      CountAllocations = true;
  }
  int *Out = nullptr; // never dereferenced in PTX-only mode
  auto K = mstage::kernel(
      [Stage](int *Out) {
        int S = mstage::stage(Stage);
#ifdef VARIANT
        S += 1;
#endif
        if (Out)
          Out[mstage::Thread::get().global.x] = S;
      },
      Grid, Block, Shared);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&] {
      try {
        for (int R = 0; R < Repeat; ++R)
          K(Out);
      } catch (const mstage::error &E) {
        std::fprintf(stderr, "%s\n", E.what());
        std::exit(1);
      }
    });
  for (std::thread &T : Pool)
    T.join();
  if (CountAllocations) {
    long Before = Allocations;
    K(Out);
    std::printf("allocations in a cached launch: %ld\n", Allocations - Before);
  }
  std::printf("cache_probe: done\n");
}
