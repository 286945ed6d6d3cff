// A known bug, found by gen_stage_kernels.py (seeds 3, 5 and 103 with one
// kernel): a site in a loop that reads a variable or a kernel argument is
// refused as loop-varying when another site of the same loop stages a
// lambda that captures it, by reference (the first kernel) or, for a kernel
// argument, by copy (the second); every value here is the same in every
// iteration. The lambda sites alone compile (test/stage/loop-invariant.cpp).
// When this passes, drop the lambdas in loops from --avoid-known-bugs in
// gen_stage_kernels.py.
//
// XFAIL: *
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  int n = 3;
  bool flag = true;
  std::vector<int> a(10), b(20), out(32), out2(32);
  kernel(
      [=](auto &o) {
        int acc = 0;
        int m = stage(n * 2);
        for (int j = 0; j < 3; ++j) {
          acc += stage(m + 1) + j;
          acc += stage([&] { return m; });
        }
        o[Thread::get().global.x] = acc;
      },
      1, 32)(out);
  kernel(
      [=](const auto &a, const auto &b, auto &o) {
        int acc = 0;
        for (int j = 0; j < 3; ++j) {
          acc += stage(int(a.size())) + j;
          acc += stage([=] { return int(flag ? b.size() : a.size()); });
        }
        o[Thread::get().global.x] = acc;
      },
      1, 32)(a, b, out2);
  std::printf("%d %d\n", out[0], out2[0]);
}
// CHECK: 42 93
