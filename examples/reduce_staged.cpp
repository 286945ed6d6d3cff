// The paper's Listing 4: reduction with multi-stage programming.
//
// As in the paper, apart from the namespace and these completions:
//  - kernel() takes the number of blocks (glbSize / lclSize);
//  - the elided levels of the unrolled tree ("// ...") are written out, in
//    the style of NVIDIA's reduce6 that Listing 3 follows: each level keeps
//    the running sum in a register, so thread 0's `sum` is the block's total;
//  - the listing's `t` is the thread index `tid`;
//  - stage is reached through a policy object (StagePolicy.h), so the same
//    source also gives the unstaged kernel for comparison.
#include "StagePolicy.h"

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace mstage;

template <class Stage>
int reduce(const std::vector<int> &input, int lclSize, int numBlocks,
           Stage stage) {
  size_t glbSize = size_t(numBlocks) * lclSize;
  size_t amountOfLocalMemory = lclSize * sizeof(int);
  std::vector<int> output(glbSize / lclSize);

  auto redKernel = kernel(
      [=](const auto &input, auto &output) {
        shared_memory<int> sm;

        auto localSize = stage(lclSize);
        auto n = stage(input.size());
        auto nIsPow2 = stage([](auto x) { return ((x & (x - 1)) == 0); }, n);

        auto block = Block::get();
        auto tid = Thread::get().index.x;
        auto i = block.index.x * localSize * 2 + tid;
        int sum = 0;
        while (i < n) {
          sum += input[i];
          if (nIsPow2 || i + localSize < n) {
            sum += input[i + localSize];
          }
          i += localSize * 2 * Grid::get().range.x;
        }
        sm[tid] = sum;
        block.synchronize();
        if (localSize >= 1024) {
          if (tid < 512) { sm[tid] = sum = sum + sm[tid + 512]; }
          block.synchronize(); }
        if (localSize >= 512) {
          if (tid < 256) { sm[tid] = sum = sum + sm[tid + 256]; }
          block.synchronize(); }
        if (localSize >= 256) {
          if (tid < 128) { sm[tid] = sum = sum + sm[tid + 128]; }
          block.synchronize(); }
        if (localSize >= 128) {
          if (tid < 64) { sm[tid] = sum = sum + sm[tid + 64]; }
          block.synchronize(); }
        if (localSize >= 64) {
          if (tid < 32) { sm[tid] = sum = sum + sm[tid + 32]; }
          block.synchronize(); }
        if (localSize >= 32) {
          if (tid < 16) { sm[tid] = sum = sum + sm[tid + 16]; }
          block.synchronize(); }
        if (localSize >= 16) {
          if (tid < 8) { sm[tid] = sum = sum + sm[tid + 8]; }
          block.synchronize(); }
        if (localSize >= 8) {
          if (tid < 4) { sm[tid] = sum = sum + sm[tid + 4]; }
          block.synchronize(); }
        if (localSize >= 4) {
          if (tid < 2) { sm[tid] = sum = sum + sm[tid + 2]; }
          block.synchronize(); }
        if (localSize >= 2) {
          if (tid < 1) { sm[tid] = sum = sum + sm[tid + 1]; }
          block.synchronize(); }
        if (tid == 0) output[block.index.x] = sum;
      },
      glbSize / lclSize, lclSize, amountOfLocalMemory);

  async(launch::kernel, redKernel, input, output).wait();
  return std::accumulate(output.begin(), output.end(), 0);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1u << 20);
  int lclSize = argc > 2 ? std::atoi(argv[2]) : 256;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i)
    input[i] = int(i % 7) - 3 + int(i % 5);
  long long expected = std::accumulate(input.begin(), input.end(), 0LL);

  int staged = reduce(input, lclSize, 264, Staged{});
  int unstaged = reduce(input, lclSize, 264, Unstaged{});
  if (mstage_rt_executes() != 1) {
    std::printf("reduce_staged: %zu ints compiled to PTX only, result not "
                "checked\n", n);
    return 0;
  }
  bool ok = staged == int(expected) && unstaged == int(expected);
  std::printf("reduce_staged: n=%zu block %d: staged %d, unstaged %d, "
              "expected %lld: %s\n",
              n, lclSize, staged, unstaged, expected, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
