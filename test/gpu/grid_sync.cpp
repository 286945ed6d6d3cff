//===- grid_sync.cpp - GPU suite: this_grid().sync() against a CPU model --===//
//
// A kernel that synchronizes its grid is launched cooperatively without being
// asked. 48 blocks of 128 threads run 12 steps of a ring shift: at each step
// every thread adds the value that a thread of another block wrote at the
// step before, which is right only if the grid barrier between the steps
// waited for every block (a missing or partial barrier reads a stale value).
// The kernel runs twice, so the barrier's word must come back to a state
// that the next launch starts from. The grid's rank and size are checked too.
// Then a grid far larger than any GPU holds at once must fail before it runs,
// with an error that names the kernel and says how many blocks fit.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "grid_sync";
constexpr unsigned Blocks = 48, BlockSize = 128, N = Blocks * BlockSize;
constexpr unsigned Steps = 12, Shift = BlockSize + 5;

long long start(unsigned I) { return (long long)(I % 97) * 1000 + I; }

int run() {
  std::vector<long long> Ring(2 * N);
  std::vector<long long> Ranks(N);
  auto Shifts = mstage::kernel(
      [](auto &Ring, auto &Ranks) {
        namespace cg = mstage::cg;
        auto Grid = cg::this_grid();
        unsigned I = unsigned(Grid.thread_rank());
        unsigned Size = unsigned(Grid.size());
        Ranks[I] = Grid.block_rank() * 1000000LL + Grid.num_blocks() * 1000LL +
                   (Grid.is_valid() ? 1 : 0);
        Ring[I] = start(I);
        for (unsigned S = 0; S < Steps; ++S) {
          Grid.sync();
          long long *From = &Ring[(S % 2) * Size];
          long long *To = &Ring[((S + 1) % 2) * Size];
          To[I] = From[I] + From[(I + Shift) % Size];
        }
      },
      Blocks, BlockSize);

  std::vector<long long> Want(N), Next(N);
  for (unsigned I = 0; I < N; ++I)
    Want[I] = start(I);
  for (unsigned S = 0; S < Steps; ++S) {
    for (unsigned I = 0; I < N; ++I)
      Next[I] = Want[I] + Want[(I + Shift) % N];
    Want.swap(Next);
  }
  const long long *Got = &Ring[(Steps % 2) * N];
  for (int Launch = 0; Launch < 2; ++Launch) {
    std::fill(Ring.begin(), Ring.end(), -1);
    Shifts(Ring, Ranks);
    for (unsigned I = 0; I < N; ++I) {
      long long Rank = (I / BlockSize) * 1000000LL + Blocks * 1000LL + 1;
      if (Got[I] != Want[I] || Ranks[I] != Rank) {
        std::printf("FAIL %s: launch %d, thread %u: %lld (rank %lld), "
                    "expected %lld (rank %lld)\n",
                    Name, Launch, I, Got[I], Ranks[I], Want[I], Rank);
        return 1;
      }
    }
  }

  // 2^20 blocks of 1024 threads: no GPU holds them at once, and the CPU back
  // end runs at most 1024 blocks at once.
  std::vector<int> Flag(1);
  try {
    mstage::kernel(
        [](auto &Flag) {
          mstage::cg::this_grid().sync();
          Flag[0] = 1;
        },
        1u << 20, 1024)(Flag);
    std::printf("FAIL %s: a grid too large to be resident was launched\n",
                Name);
    return 1;
  } catch (const mstage::error &E) {
    std::string What = E.what();
    if (What.find("synchronizes its grid") == std::string::npos ||
        What.find("kernel_L") == std::string::npos || Flag[0] != 0) {
      std::printf("FAIL %s: the error of a grid too large: %s\n", Name,
                  What.c_str());
      return 1;
    }
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
