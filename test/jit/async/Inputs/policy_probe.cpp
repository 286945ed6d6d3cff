// Runs the commands on its command line in order, for the tests of the JIT
// policy (MSTAGE_JIT=auto), and prints where each launch's code came from:
//   short V   a kernel of 64 threads that stores the staged value V
//   long V    a kernel of 2^24 threads whose three nested loops run V times
//             each (V staged): the work of one long launch
//   wait      mstage::jit_wait()
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static const char *sourceName(int Source) {
  static const char *Names[] = {"memory", "disk", "miss", "off", "generic"};
  return Source >= 0 && Source <= 4 ? Names[Source] : "unknown";
}

int main(int argc, char **argv) {
  float *Out = nullptr; // never dereferenced off the GPU
  auto Short = [](int Value) {
    return mstage::kernel(
        [Value](float *Out) {
          float S = float(mstage::stage(Value));
          if (Out)
            Out[mstage::Thread::get().global.x] = S;
        },
        2, 32);
  };
  auto Long = [](int Value) {
    return mstage::kernel(
        [Value](float *Out) {
          int N = mstage::stage(Value);
          float S = 0;
          for (int I = 0; I < N; ++I)
            for (int J = 0; J < N; ++J)
              for (int K = 0; K < N; ++K)
                S += 1.0f / float(I + J + K + 1);
          if (Out)
            Out[mstage::Thread::get().global.x] = S;
        },
        65536, 256);
  };
  try {
    for (int I = 1; I < argc; ++I) {
      auto Next = [&] { return I + 1 < argc ? std::atoi(argv[++I]) : 0; };
      const char *What = argv[I];
      if (!std::strcmp(What, "short") || !std::strcmp(What, "long")) {
        int V = Next();
        if (!std::strcmp(What, "short"))
          Short(V)(Out);
        else
          Long(V)(Out);
        std::printf("%s %d: %s\n", What, V,
                    sourceName(mstage_rt_last_launch_source(nullptr)));
      } else if (!std::strcmp(What, "wait")) {
        mstage::jit_wait();
      } else {
        std::fprintf(stderr, "unknown command '%s'\n", What);
        return 2;
      }
    }
  } catch (const mstage::error &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return 0;
}
