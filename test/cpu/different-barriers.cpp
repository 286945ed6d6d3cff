// Threads of a block at barriers in different places (one in each arm of an
// if) on the CPU back end. Built without bounds checks the barriers pair up,
// as bar.sync 0 does on a GPU: the launch completes, and the threads after the
// second barrier see what those before the first one wrote. Built with them
// (-DMSTAGE_BOUNDS_CHECK=1, a macro), the launch fails with mstage::error
// naming the kernel, the block, a thread at each barrier and both places, and
// the next launch runs. MSTAGE_BOUNDS_CHECK set in the environment changes
// nothing, and the first launch says so (also in PTX-only mode).
//
// RUN: %mstagexx -O2 -DMSTAGE_BOUNDS_CHECK=1 %s -o %t.checked
// RUN: %mstagexx -O2 -DMSTAGE_BOUNDS_CHECK=0 %s -o %t.plain
// RUN: env MSTAGE_BACKEND=cpu %t.checked 2>&1 | FileCheck --check-prefix=CHECKED %s
// RUN: env MSTAGE_BACKEND=cpu %t.plain 2>&1 | FileCheck --check-prefixes=PLAIN,NOENV %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_BOUNDS_CHECK=1 %t.plain 2>&1 | FileCheck --check-prefixes=ENV,PLAIN %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_BOUNDS_CHECK=1 %t.checked 2>&1 | FileCheck --check-prefixes=ENV,PTX %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> Out(64, -1);
  try {
    kernel(
        [](auto &Out) {
          shared_memory<int> Sm;
          auto B = Block::get();
          unsigned T = Thread::get().index.x;
          if (T < 32) {
            Sm[T] = int(T) + 100;
            B.synchronize(); // FIRST
          } else {
            B.synchronize(); // SECOND
            Out[T] = Sm[T - 32];
          }
        },
        2, 64, 64 * sizeof(int))(Out);
    std::printf("paired: out[32]=%d out[63]=%d\n", Out[32], Out[63]);
  } catch (const error &E) {
    std::printf("%s\n", E.what());
  }
  std::vector<int> V(32, 0);
  kernel(
      [](auto &V) {
        Block::get().synchronize();
        V[Thread::get().index.x] = 5;
      },
      1, 32)(V);
  std::printf("next launch: v[31]=%d\n", V[31]);
}

// ENV: mstage: MSTAGE_BOUNDS_CHECK is set in the environment, where it changes nothing: bounds checks are chosen when the program is compiled (mstage++ -DMSTAGE_BOUNDS_CHECK=1, or 0)
// NOENV-NOT: MSTAGE_BOUNDS_CHECK is set

// CHECKED: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}different-barriers.cpp:{{[0-9]+}}:{{[0-9]+}}' on the CPU: in block ({{[01]}}, 0, 0), thread (0, 0, 0) waits at the barrier at {{.*}}different-barriers.cpp:[[#@LINE-24]] and thread (32, 0, 0) at the one at {{.*}}different-barriers.cpp:[[#@LINE-22]]; every thread of a block that has not exited must reach the same barrier (on a GPU, as on the CPU without bounds checks, barriers in different places pair up silently)
// CHECKED-NEXT: next launch: v[31]=5

// PLAIN: paired: out[32]=100 out[63]=131
// PLAIN-NEXT: next launch: v[31]=5

// PTX: paired: out[32]=-1 out[63]=-1
// PTX-NEXT: next launch: v[31]=0
