//===- shared_barrier.cpp - GPU suite: shared memory across a barrier -----===//
//
// Each block loads its slice into shared memory, synchronizes, writes the
// slice reversed into a second shared array, synchronizes again, and then each
// thread stores its right-hand neighbour's element of the reversed slice
// (a rotate by one). Every value a thread stores was written by another
// thread, so a missing or misplaced barrier, or a wrong shared-memory size,
// shows up in the result (and under racecheck). The shared size is computed
// from the block size, for blocks of 32, 128 and 1024 threads. The last block
// is partial: its threads past the end load a fill value instead.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "shared_barrier";
constexpr int Fill = -7777;        // what threads past the end load
constexpr int Poison = 0x5A5A5A5A; // outputs before the launch
constexpr unsigned BlockSizes[] = {32, 128, 1024};
constexpr unsigned Blocks = 777;
constexpr unsigned Missing = 5; // elements the last block lacks

// What thread G stores: element bs-1-t' of its block's slice, t' = (t+1)%bs.
int expectedAt(const std::vector<int> &In, std::size_t G, unsigned BS) {
  std::size_t Base = G / BS * BS;
  unsigned T = unsigned(G % BS);
  unsigned Neighbour = (T + 1) % BS;
  std::size_t Src = Base + (BS - 1 - Neighbour);
  return Src < In.size() ? In[Src] : Fill;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }

  auto Body = [](const auto &In, auto &Out, int FillValue) {
    mstage::shared_memory<int> Sm;
    auto Block = mstage::Block::get();
    unsigned BS = Block.range.x;
    unsigned T = mstage::Thread::get().index.x;
    std::size_t G = mstage::Thread::get().global.x;
    Sm[T] = G < In.size() ? In[G] : FillValue;
    Block.synchronize();
    Sm[BS + T] = Sm[BS - 1 - T];
    Block.synchronize();
    if (G < Out.size())
      Out[G] = Sm[BS + (T + 1) % BS];
  };

  std::mt19937 Gen(271828);
  std::uniform_int_distribution<int> Dist(1, 1'000'000);
  std::bernoulli_distribution Negative(0.5);
  std::size_t Checked = 0;
  for (unsigned BS : BlockSizes) {
    std::size_t N = std::size_t(Blocks) * BS - Missing;
    std::vector<int> In(N);
    for (int &V : In)
      V = Negative(Gen) ? -Dist(Gen) : Dist(Gen);
    std::vector<int> Out(N, Poison);
    std::size_t SharedBytes = 2 * std::size_t(BS) * sizeof(int);
    mstage::kernel(Body, Blocks, BS, SharedBytes)(In, Out, Fill);
    if (Executes == 0)
      continue;

    for (std::size_t G = 0; G < N; ++G) {
      int Want = expectedAt(In, G, BS);
      if (Out[G] != Want) {
        std::printf("FAIL %s: block %u, %zu shared bytes: out[%zu] (block "
                    "%zu, thread %zu) = %d, expected %d\n",
                    Name, BS, SharedBytes, G, G / BS, G % BS, Out[G], Want);
        return 1;
      }
    }
    Checked += N;
  }

  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }
  std::printf("PASS %s: blocks of 32, 128 and 1024 threads, %u blocks each, "
              "%zu elements checked\n",
              Name, Blocks, Checked);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
