// The CPU back end honours Block::synchronize(): a block-wide tree reduction
// in shared memory, with a barrier after every step (and a few more that do
// nothing), is right for blocks of 1, 32, 33 and 1024 threads and for a
// 2D block, on a grid of many blocks. The trace shows that these blocks run
// on fibers, and that a kernel with no barrier runs as a plain loop.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck --check-prefix=ONE %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_FIBERS=always MSTAGE_TRACE=1 %t 2>&1 | FileCheck --check-prefix=ALWAYS %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

// Sums each block's slice; every thread writes the block's sum it saw.
bool check(dim3 Block, unsigned Blocks) {
  unsigned BS = Block.x * Block.y * Block.z;
  std::vector<long long> In(std::size_t(BS) * Blocks), Out(In.size(), -1);
  for (std::size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<long long>(I % 1000) - 300;
  kernel(
      [](const auto &In, auto &Out) {
        shared_memory<long long> Sm;
        auto B = Block::get();
        auto T = Thread::get();
        unsigned BS = B.range.x * B.range.y * B.range.z;
        unsigned L = (T.index.z * B.range.y + T.index.y) * B.range.x + T.index.x;
        std::size_t G = std::size_t(B.index.x) * BS + L;
        Sm[L] = In[G];
        B.synchronize();
        B.synchronize(); // a barrier that changes nothing
        // Not a power of two in general: fold the top half onto the bottom.
        for (unsigned N = BS; N > 1; N = (N + 1) / 2) {
          unsigned Half = (N + 1) / 2;
          long long V = L < N - Half ? Sm[L + Half] : 0;
          B.synchronize();
          if (L < N - Half)
            Sm[L] += V;
          B.synchronize();
        }
        Out[G] = Sm[0];
        B.synchronize(); // no thread overwrites Sm[0] before all read it
        Sm[L] = -1;
      },
      Blocks, Block, BS * sizeof(long long))(In, Out);
  for (unsigned B = 0; B < Blocks; ++B) {
    long long Want = 0;
    for (unsigned L = 0; L < BS; ++L)
      Want += In[std::size_t(B) * BS + L];
    for (unsigned L = 0; L < BS; ++L)
      if (Out[std::size_t(B) * BS + L] != Want) {
        std::printf("FAIL block %ux%ux%u: block %u thread %u: %lld, expected "
                    "%lld\n",
                    Block.x, Block.y, Block.z, B, L,
                    Out[std::size_t(B) * BS + L], Want);
        return false;
      }
  }
  std::printf("ok %ux%ux%u\n", Block.x, Block.y, Block.z);
  return true;
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // in order with the trace
  std::printf("backend %s\n", mstage_rt_backend());
  bool Ok = check(1, 100) && check(32, 100) && check(33, 100) &&
            check(1024, 20) && check({8, 4, 3}, 30);
  std::vector<int> V(64);
  kernel([](auto &V) { V[Thread::get().global.x] = 1; }, 2, 32)(V);
  std::printf("%s\n", Ok ? "PASS" : "FAIL");
  return Ok ? 0 : 1;
}

// CHECK: backend cpu
// CHECK: grid 100x1x1 block 1x1x1 {{.*}} backend cpu (loop,
// CHECK: ok 1x1x1
// CHECK: grid 100x1x1 block 32x1x1 {{.*}} backend cpu (fibers,
// CHECK: ok 32x1x1
// CHECK: ok 33x1x1
// CHECK: ok 1024x1x1
// CHECK: ok 8x4x3
// CHECK: grid 2x1x1 block 32x1x1 {{.*}} backend cpu (loop,
// CHECK: PASS

// ONE: ok 1024x1x1
// ONE: PASS

// ALWAYS: grid 100x1x1 block 1x1x1 {{.*}} backend cpu (loop,
// ALWAYS: grid 2x1x1 block 32x1x1 {{.*}} backend cpu (fibers,
// ALWAYS: PASS
