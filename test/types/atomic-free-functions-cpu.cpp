// mstage::atomic_* on the CPU back end: each returns the old value, as
// CUDA's atomicAdd & co. do, and the totals of 4 blocks of 64 threads are
// what one thread after another would leave: add, sub, min, max of int,
// unsigned long long, float and double, exch (exactly one thread gets the
// initial value back), cas (exactly one thread wins), and block scope on
// shared memory.
// RUN: %mstagexx -O2 -std=c++20 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// CHECK: add 256 sub -512 min -100 max 255 ull 255000 f 255 d 128
// CHECK-NEXT: exch-initial 1 cas-winners 1 cas-value-ok 1
// CHECK-NEXT: block 64 64 64 64
// CHECK-NEXT: old-values-distinct 1

#include <mstage.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace mstage;

int main() {
  constexpr int Blocks = 4, Threads = 64, N = Blocks * Threads;
  std::vector<int> c = {0, 0, 1000, -1000, -1, 0, 0};
  std::vector<unsigned long long> u(1, 0);
  std::vector<float> f(1, -1e30f);
  std::vector<double> d(1, 0);
  std::vector<int> perBlock(Blocks), olds(N), exchOld(N);
  kernel(
      [](auto &c, auto &u, auto &f, auto &d, auto &perBlock, auto &olds,
         auto &exchOld) {
        int g = int(Thread::get().global.x);
        olds[g] = atomic_add(&c[0], 1);
        atomic_sub(&c[1], 2);
        atomic_min(&c[2], g - 100);
        atomic_max(&c[3], g);
        atomic_max(&u[0], (unsigned long long)g * 1000);
        atomic_max(&f[0], float(g));
        atomic_add(&d[0], 0.5);
        exchOld[g] = atomic_exch(&c[4], g);
        if (atomic_cas(&c[5], 0, g + 1) == 0)
          atomic_add(&c[6], 1);
        shared_memory<int> sm;
        if (Thread::get().index.x == 0)
          sm[0] = 0;
        Block::get().synchronize();
        atomic_add<scope::block>(&sm[0], 1);
        Block::get().synchronize();
        if (Thread::get().index.x == 0)
          perBlock[Block::get().index.x] = sm[0];
      },
      Blocks, Threads, sizeof(int))(c, u, f, d, perBlock, olds, exchOld);
  std::printf("add %d sub %d min %d max %d ull %llu f %g d %g\n", c[0], c[1],
              c[2], c[3], u[0], f[0], d[0]);
  std::printf("exch-initial %d cas-winners %d cas-value-ok %d\n",
              int(std::count(exchOld.begin(), exchOld.end(), -1)), c[6],
              int(c[5] >= 1 && c[5] <= N));
  std::printf("block %d %d %d %d\n", perBlock[0], perBlock[1], perBlock[2],
              perBlock[3]);
  std::sort(olds.begin(), olds.end());
  bool Distinct = true;
  for (int I = 0; I < N; ++I)
    Distinct &= olds[I] == I;
  std::printf("old-values-distinct %d\n", int(Distinct));
}
