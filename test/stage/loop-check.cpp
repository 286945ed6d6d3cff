// MSTAGE_CHECK=stage catches a stage() site whose value is not the same in
// every execution, on the CPU back end: every execution of every site in
// every thread is compared with the value its evaluator gives for the launch
// (the value a GPU gets folded in). The kernel is the one that was silently
// miscompiled (20 on the GPU, 60030 on the CPU), built here with the compile
// error switched off (a switch only for this test), so that it folds as it
// did then. Without the check the CPU gives 60030; with it, the launch fails
// naming the first site that differs, its file:line:col, both values and the
// thread. A kernel whose sites are the same everywhere passes the check.
//
// RUN: %mstagexx -O2 -Xclang -plugin-arg-mstage -Xclang no-stage-loop-check %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=PLAIN
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=off,stage %t 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=FOLDED
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stages %t 2>&1 | FileCheck %s --check-prefix=BAD

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

template <class V> unsigned sz(const V &v) { return stage(unsigned(v.size())); }

int main() {
  int n = 4;
  std::vector<int> a(10), b(20), out(32);
  auto k = kernel(
      [n](const auto &a, const auto &b, auto &o) {
        int acc = 0;
        for (int j = 0; j < n; ++j)
          acc += stage(j * 10);
        unsigned s = 0;
        for (int r = 0; r < 2; ++r)
          s += sz(r == 0 ? a : b);
        o[Thread::get().global.x] = acc * 1000 + int(s);
      },
      1, 32);
  auto fine = kernel(
      [n](auto &o) { o[Thread::get().global.x] = stage(n * 2) + 1; }, 1, 32);
  try {
    fine(out);
    std::printf("fine %d\n", out[5]);
    k(a, b, out);
    std::printf("ran %d\n", out[0]);
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}
// PLAIN: fine 9
// PLAIN: ran 60030
// CHECK: fine 9
// CHECK: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}loop-check.cpp:30:7': MSTAGE_CHECK=stage: the stage() at {{.*}}loop-check.cpp:33:18 gave 10 in thread (0,0,0) of block (0,0,0), but 0 was folded into the kernel for this launch; a staged value must be the same in every execution of its stage() call (128 executions differed)
// FOLDED: staged {line 24: 10, line 33: 0}
// BAD: mstage: MSTAGE_CHECK='stages' is not a list of cpu, stage and streams, or off
