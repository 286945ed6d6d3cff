// Two shared_arrays that one macro expansion declares share their place
// (file, line and column of the expansion) but are two arrays: each
// constructor call is numbered by mstage++ before anything is inlined.
// Before, they were one array, and a + b gave 2 * b (22 for 10 + 1 in one
// thread's slot). Checked against a host loop on the CPU back end, and in
// the PTX, where the macro's two tiles are two distinct .shared arrays of
// the same line and column, while the documented sharing stays: a device
// function called twice (and the macro inside it) is one array per
// declaration, not one per call, and a declaration in a loop is one array.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=CPU
// RUN: %mstage_ptx %t --kernel main::kernel_L50 --block 32 > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %mstagexx -O0 %s -o %t.O0
// RUN: env MSTAGE_BACKEND=cpu %t.O0 | FileCheck %s --check-prefix=CPU

#include <cstdio>
#include <mstage.hpp>
#include <vector>

#define TWO_TILES(T, N, A, B)                                                  \
  mstage::shared_array<T, N> A;                                                \
  mstage::shared_array<T, N> B

// One pair of arrays however often it is called: the second call adds to
// what the first left, and reads its neighbour's sums.
static int pairSum(unsigned t, int x, int y, bool first) {
  TWO_TILES(int, 32, p, q);
  mstage::Block::get().synchronize(); // the last call's reads are done
  p[t] = first ? x : p[t] + x;
  q[t] = first ? y : q[t] + y;
  mstage::Block::get().synchronize();
  return p[(t + 1) % 32] * 100 + q[(t + 1) % 32];
}

static int host(unsigned t, const std::vector<int> &in) {
  unsigned n = (t + 1) % 32;
  int tiles = in[t] * 10 + 1;
  int first = in[n] * 100 + 1, second = 2 * in[n] * 100 + 2;
  int loop = 3 * in[n];
  return tiles + first + second + loop;
}

int main() {
  std::vector<int> in(32), out(32);
  for (int i = 0; i < 32; ++i)
    in[i] = i + 1;
  mstage::kernel(
      [](mstage::vector_view<int> in, mstage::vector_view<int> out) {
        unsigned t = mstage::Thread::get().index.x;
        TWO_TILES(int, 32, a, b);
        a[t] = in[t] * 10;
        b[t] = 1;
        mstage::Block::get().synchronize();
        int r = a[t] + b[t];
        r += pairSum(t, in[t], 1, true);
        r += pairSum(t, in[t], 1, false);
        for (int round = 0; round < 3; ++round) {
          mstage::shared_array<int, 32> acc;
          if (round == 0)
            acc[t] = 0;
          acc[t] += in[t];
          mstage::Block::get().synchronize();
          if (round == 2)
            r += acc[(t + 1) % 32];
          mstage::Block::get().synchronize();
        }
        out[t] = r;
      },
      1, 32)(in, out);
  int bad = 0;
  for (unsigned t = 0; t < 32; ++t)
    if (out[t] != host(t, in) && bad++ < 4)
      std::printf("thread %u: %d, expected %d\n", t, out[t], host(t, in));
  std::printf("%s: %d of 32 threads differ from the host\n",
              bad ? "FAIL" : "PASS", bad);
}

// CPU: PASS: 0 of 32 threads differ from the host

// PTX: .entry {{_ZN4main[0-9]+kernel_L50E}}(
// PTX-DAG: .shared .align 4 .b8 __mstage_shared_L[[MAIN:52]]_C[[COL:[0-9]+]][128];
// PTX-DAG: .shared .align 4 .b8 __mstage_shared_L[[MAIN]]_C[[COL]]_2[128];
// PTX-DAG: .shared .align 4 .b8 __mstage_shared_L[[PAIR:29]]_C[[PCOL:[0-9]+]][128];
// PTX-DAG: .shared .align 4 .b8 __mstage_shared_L[[PAIR]]_C[[PCOL]]_2[128];
// PTX-DAG: .shared .align 4 .b8 __mstage_shared_L{{[0-9]+}}_C{{[0-9]+}}[128];
// PTX-NOT: .shared .align
