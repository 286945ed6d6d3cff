// Found by gen_stage_kernels.py (seeds 3, 5 and 103 with one kernel): a site
// in a loop that reads a kernel argument was refused as loop-varying when
// another site of the loop staged a lambda that captures it by copy (the
// copy of the argument into the closure counted as a write of it); fixed,
// the kernel compiles and agrees with the CPU under MSTAGE_CHECK=stage.
// A lambda that captures a variable by reference is still taken to write
// it: mstage does not look into a stage() functor, and `[&] { return ++m; }`
// would change m in every iteration on the host while the GPU folds one
// value. So another site of the loop that reads m is refused, by design
// (the -DBYREF error).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s
// RUN: not %mstagexx -O2 -c -DBYREF %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BYREF

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  int n = 3;
  bool flag = true;
  std::vector<int> a(10), b(20), out(32), out2(32);
#ifdef BYREF
  kernel(
      [=](auto &o) {
        int acc = 0;
        int m = stage(n * 2);
        for (int j = 0; j < 3; ++j) {
          // BYREF: lambda-capture-in-loop.cpp:[[@LINE+1]]:18: error: mstage: this stage() call is in the loop at lambda-capture-in-loop.cpp:[[@LINE-1]] and its value can change
          acc += stage(m + 1) + j;
          acc += stage([&] { return m; });
        }
        o[Thread::get().global.x] = acc;
      },
      1, 32)(out);
#endif
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
  std::printf("%d\n", out2[0]);
}
// CHECK: 93
