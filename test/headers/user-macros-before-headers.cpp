// mstage's headers survive a user's short macros: every one- and two-letter
// uppercase macro (`#define N 100`, `#define T`, `#define AB`, ...) and some
// short mixed-case ones (Op, Fn, ...), defined before every public header is
// included, once as `1` and once as nothing. A kernel with shared memory,
// barriers, atomics, vector types and device algorithms then computes what
// the host computes.
// RUN: %python %S/Inputs/user-macros.py 1 %src_root/include > %t-one.h
// RUN: %python %S/Inputs/user-macros.py "" %src_root/include > %t-empty.h
// RUN: %mstagexx -O2 -std=c++20 -include %t-one.h %s -o %t-one
// RUN: env MSTAGE_BACKEND=cpu %t-one | FileCheck %s
// RUN: %mstagexx -O2 -std=c++20 -include %t-empty.h %s -o %t-empty
// RUN: env MSTAGE_BACKEND=cpu %t-empty | FileCheck %s
// CHECK: sums-equal 1 reduce-equal 1 count-equal 1 sorted 1
// CHECK-NOT: error

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  constexpr int blocks = 4, threads = 64, size = blocks * threads;
  std::vector<int> in(size), blockSums(blocks), total(1, 0);
  std::iota(in.begin(), in.end(), -37);
  mstage::kernel(
      [](const auto &in, auto &blockSums, auto &total) {
        mstage::shared_array<int, 64> tile;
        unsigned t = mstage::Thread::get().index.x;
        unsigned b = mstage::Block::get().index.x;
        mstage::int2 pair = mstage::make_int2(in[b * 64 + t], 1);
        tile[t] = pair.x * pair.y;
        mstage::Block::get().synchronize();
        if (t == 0) {
          int sum = 0;
          for (int i = 0; i < 64; ++i)
            sum += tile[i];
          blockSums[b] = sum;
        }
        mstage::atomic_add(&total[0], tile[t]);
      },
      blocks, threads)(in, blockSums, total);
  int expected = std::accumulate(in.begin(), in.end(), 0);
  bool sumsEqual = total[0] == expected;
  for (int b = 0; b < blocks; ++b)
    sumsEqual &= blockSums[b] == std::accumulate(in.begin() + b * threads,
                                                 in.begin() + b * threads +
                                                     threads,
                                                 0);
  mstage::device_vector<int> dev(size);
  dev.upload(in);
  int reduced = mstage::reduce(dev, 0, [](int a, int b) { return a + b; });
  auto negative = mstage::count_if(dev, [](int v) { return v < 0; });
  mstage::sort(dev);
  std::vector<int> sorted = dev.download();
  std::printf("sums-equal %d reduce-equal %d count-equal %d sorted %d\n",
              int(sumsEqual), int(reduced == expected),
              int(negative == std::count_if(in.begin(), in.end(),
                                            [](int v) { return v < 0; })),
              int(std::is_sorted(sorted.begin(), sorted.end()) &&
                  sorted.front() == in.front() && sorted.back() == in.back()));
}
