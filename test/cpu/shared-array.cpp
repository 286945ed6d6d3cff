// mstage::shared_array on the CPU back end, with blocks running at once on 4
// OS threads:
//  - a tiled transpose through a 16x17 tile (tile[y][x] and tile(x, y))
//    matches a plain host loop;
//  - two arrays of one kernel do not overlap: each thread fills its element
//    of both with different values, and after the barrier both are intact;
//  - 3-D indexing: cube[z][y][x] and cube(z, y, x) name the same element,
//    row-major (data()[(z * 3 + y) * 4 + x]);
//  - each block has its own arrays: every block writes its id and finds
//    only its own after the barrier;
//  - a declaration in a function called twice is one array, as __shared__:
//    what the first call writes, the second call reads.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// RUN: %mstagexx -O0 %s -o %t.O0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t.O0 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

// Returns what the previous call left in the block's one array.
static unsigned previous(unsigned t, unsigned v) {
  shared_array<unsigned, 64> slot;
  unsigned old = slot[t];
  slot[t] = v;
  return old;
}

int main() {
  constexpr unsigned N = 64, T = 16;
  std::vector<float> in(N * N), out(N * N), ref(N * N);
  for (unsigned i = 0; i < N * N; ++i)
    in[i] = float(i % 1000) * 0.5f;
  for (unsigned y = 0; y < N; ++y)
    for (unsigned x = 0; x < N; ++x)
      ref[x * N + y] = in[y * N + x];
  kernel(
      [](vector_view<float> in, vector_view<float> out) {
        shared_array<float, T, T + 1> tile;
        auto t = Thread::get().index;
        auto b = Block::get().index;
        tile[t.y][t.x] = in[(b.y * T + t.y) * N + b.x * T + t.x];
        Block::get().synchronize();
        out[(b.x * T + t.y) * N + b.y * T + t.x] = tile(t.x, t.y);
      },
      dim3(N / T, N / T), dim3(T, T))(in, out);
  unsigned Wrong = 0;
  for (unsigned i = 0; i < N * N; ++i)
    Wrong += out[i] != ref[i];
  // CHECK: transpose: 0 wrong of 4096
  std::printf("transpose: %u wrong of %u\n", Wrong, N * N);

  constexpr unsigned Blocks = 32, Threads = 24;
  std::vector<unsigned> res(Blocks * Threads);
  kernel(
      [](vector_view<unsigned> res) {
        shared_array<unsigned, Threads> a;
        shared_array<unsigned short, Threads> b;
        shared_array<unsigned, 2, 3, 4> cube;
        unsigned t = Thread::get().index.x, blk = Block::get().index.x;
        a[t] = blk * 1000 + t;
        b[t] = static_cast<unsigned short>(50000 + t);
        cube[t / 12][t / 4 % 3][t % 4] = blk * 100 + t;
        unsigned first = previous(t, blk + 7);
        (void)first;
        Block::get().synchronize();
        unsigned second = previous(t, 0);
        unsigned bad = 0;
        for (unsigned i = 0; i < Threads; ++i) {
          bad += a[i] != blk * 1000 + i;
          bad += b[i] != 50000 + i;
          bad += cube(i / 12, i / 4 % 3, i % 4) != blk * 100 + i;
          bad += cube.data()[(i / 12 * 3 + i / 4 % 3) * 4 + i % 4] !=
                 blk * 100 + i;
        }
        bad += (second != blk + 7) * 1000;
        res[blk * Threads + t] = bad;
      },
      Blocks, Threads)(res);
  unsigned Bad = 0;
  for (unsigned r : res)
    Bad += r;
  // CHECK-NEXT: two arrays, 3-D, per block, per declaration: 0 wrong
  std::printf("two arrays, 3-D, per block, per declaration: %u wrong\n", Bad);
}
