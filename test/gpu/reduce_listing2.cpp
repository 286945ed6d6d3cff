//===- reduce_listing2.cpp - GPU suite: the paper's Listing 2, checked ----===//
//
// The reduction of examples/reduce.cpp (shared memory and a tree loop, one
// partial sum per block, the partial sums added on the host), on n = 2^27 and
// n = 2^27 + 172 ints. Each block's partial sum is checked against the CPU,
// then the total against a long long reference.
//
// With MSTAGE_SUITE_QUICK=1 in the environment (tools/gpu/run-suite.sh sets
// it for the compute-sanitizer runs) n is 2^20 and 2^20 + 172 instead.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <random>
#include <vector>

using namespace mstage;

namespace {

constexpr const char *Name = "reduce_listing2";
constexpr int Poison = -0x7EADBEEF; // no block of 256 small values sums to it

constexpr int lclSize = 256;

// Listing 2, returning the partial sums so that each one can be checked.
std::vector<int> reducePartials(const std::vector<int> &input) {
  size_t glbSize = (input.size() + lclSize - 1) / lclSize * lclSize;
  size_t amountOfLocalMemory = lclSize * sizeof(int);
  std::vector<int> output(glbSize / lclSize, Poison);

  auto redKernel = kernel(
      [](const auto &input, auto &output) {
        shared_memory<int> sm;
        auto block = Block::get();
        auto tid = Thread::get().index.x;
        auto gid = Thread::get().global.x;
        auto n = input.size();
        sm[tid] = (gid < n) ? input[gid] : 0;
        block.synchronize();
        for (int s = block.size.x / 2; s > 0; s >>= 1) {
          if (tid < unsigned(s)) {
            sm[tid] += sm[tid + s];
          }
          block.synchronize();
        }
        if (tid == 0)
          output[block.index.x] = sm[0];
      },
      glbSize / lclSize, lclSize, amountOfLocalMemory);

  async(launch::kernel, redKernel, input, output).get();
  return output;
}

// Reduces the first N values of All and checks the result. Returns false
// after printing FAIL.
bool reduceAndCheck(const std::vector<int> &All, std::size_t N, bool Executes,
                    long long &Sum) {
  std::vector<int> Input(All.begin(), All.begin() + N);
  std::vector<int> Partials = reducePartials(Input);
  if (!Executes)
    return true;

  std::size_t Blocks = (N + lclSize - 1) / lclSize;
  if (Partials.size() != Blocks) {
    std::printf("FAIL %s: n=%zu: %zu partial sums, expected %zu\n", Name, N,
                Partials.size(), Blocks);
    return false;
  }
  long long Expected = 0;
  for (std::size_t B = 0; B < Blocks; ++B) {
    long long Ref = 0;
    for (std::size_t I = B * lclSize; I < N && I < (B + 1) * lclSize; ++I)
      Ref += Input[I];
    if (Partials[B] != Ref) {
      std::printf("FAIL %s: n=%zu: partial sum output[%zu] = %d, expected "
                  "%lld\n",
                  Name, N, B, Partials[B], Ref);
      return false;
    }
    Expected += Ref;
  }
  // As in the listing: the partial sums added on the host, in int.
  int Result = std::accumulate(Partials.begin(), Partials.end(), 0);
  if (Result != Expected) {
    std::printf("FAIL %s: n=%zu: sum %d, expected %lld\n", Name, N, Result,
                Expected);
    return false;
  }
  Sum = Expected;
  return true;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }

  const char *Quick = std::getenv("MSTAGE_SUITE_QUICK");
  bool IsQuick = Quick && *Quick && std::strcmp(Quick, "0") != 0;
  const std::size_t Base = std::size_t(1) << (IsQuick ? 20 : 27);
  const std::size_t Sizes[] = {Base, Base + 172};

  // Values in [-3, 4] without 0: |sum| <= 4 * n, far from overflowing an int.
  std::mt19937 Gen(1618033);
  std::uniform_int_distribution<int> Dist(-3, 3);
  std::vector<int> All(Sizes[1]);
  for (int &V : All) {
    int D = Dist(Gen);
    V = D < 0 ? D : D + 1;
  }

  long long Sums[2] = {0, 0};
  for (int I = 0; I < 2; ++I)
    if (!reduceAndCheck(All, Sizes[I], Executes == 1, Sums[I]))
      return 1;

  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }
  std::printf("PASS %s: n=%zu sum %lld, n=%zu sum %lld%s\n", Name, Sizes[0],
              Sums[0], Sizes[1], Sums[1], IsQuick ? " (quick sizes)" : "");
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
