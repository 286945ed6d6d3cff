// The paper's Listing 2: reduction as a single C++ program.
//
// As written in the paper, apart from:
//  - the namespace (mstage:: instead of PACXX's);
//  - kernel() takes the number of blocks, so glbSize becomes glbSize/lclSize;
//  - the listing declares `lid` but uses `tid`: one name is used here;
//  - std::accumulate needs a range and an initial value.
#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace mstage;

constexpr int lclSize = 256;

int reduce(const std::vector<int> &input) {
  size_t glbSize = (input.size() + lclSize - 1) / lclSize * lclSize;
  size_t amountOfLocalMemory = lclSize * sizeof(int);
  std::vector<int> output(glbSize / lclSize);

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

  async(launch::kernel, redKernel, input, output).wait();
  return std::accumulate(output.begin(), output.end(), 0);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1u << 20) + 172;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i)
    input[i] = int(i % 7) - 3 + int(i % 5);
  long long expected = std::accumulate(input.begin(), input.end(), 0LL);

  int result = reduce(input);
  if (mstage_rt_executes() != 1) {
    std::printf("reduce: %zu ints compiled to PTX only, result not checked\n",
                n);
    return 0;
  }
  bool ok = result == int(expected);
  std::printf("reduce: %zu ints, sum %d, expected %lld: %s\n", n, result,
              expected, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
