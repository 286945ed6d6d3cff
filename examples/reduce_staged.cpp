// The paper's Listing 4 (reduction with multi-stage programming) as a
// program: the kernel is in Listing4.h; this file launches it staged and
// unstaged and checks both against the CPU.
#include "Listing4.h"

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

  auto redKernel = kernel(listing4Kernel(lclSize, stage), glbSize / lclSize,
                          lclSize, amountOfLocalMemory);

  async(launch::kernel, redKernel, input, output).wait();
  return std::accumulate(output.begin(), output.end(), 0);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1u << 20);
  int lclSize = argc > 2 ? std::atoi(argv[2]) : 256;
  int numBlocks = argc > 3 ? std::atoi(argv[3]) : 264;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i)
    input[i] = int(i % 7) - 3 + int(i % 5);
  long long expected = std::accumulate(input.begin(), input.end(), 0LL);

  int staged = reduce(input, lclSize, numBlocks, Staged{});
  int unstaged = reduce(input, lclSize, numBlocks, Unstaged{});
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
