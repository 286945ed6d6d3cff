// A stage() site that a launch never reaches is not evaluated: the host's
// evaluator follows the branches that decide whether the site runs when it
// can compute them, as the kernel does. Before, it headed for the site
// whatever they said: `if (n > 0) stage(100 / n)` divided by zero on the
// host at the launch with n = 0 (SIGFPE: the process died), and a site in
// two nested loops, the inner one never entered (a bound that is a capture,
// 0 here), went round the outer loop 2^32 times and then failed the launch
// ("gave up"; found by gen_stage_kernels.py, seed 366679995). The sites
// that are reached keep their values (the CPU back end's result, where each
// stage() runs as written, must equal the folded one: MSTAGE_CHECK=stage).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage timeout 60 %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_TRACE=1 timeout 60 %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: %mstagexx -O0 %s -o %t0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage timeout 60 %t0 | FileCheck %s

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  device_vector<int> Out(4);
  for (int N : {4, 0}) {
    auto K = kernel(
        [=](auto &O) {
          auto T = Thread::get();
          if (N > 0)
            O[T.global.x % 4] = stage(100 / N);
          else
            O[T.global.x % 4] = -1;
        },
        {1}, {4});
    K(Out);
    std::printf("divide n=%d: %d\n", N, Out.download()[0]);
  }
  for (int Inner : {3, 0}) {
    auto K = kernel(
        [=](auto &O) {
          auto T = Thread::get();
          int Acc = 0;
          for (int I = 0; I < int(Block::get().range.x % 3); ++I) {
            unsigned Outer = stage(unsigned(Inner) * 7u + 1u);
            for (int J = 0; J < Inner % 4; ++J)
              Acc += int(stage(Outer % 5u)) + J;
          }
          O[T.global.x % 4] = Acc;
        },
        {1}, {4});
    K(Out);
    std::printf("loops inner=%d: %d\n", Inner, Out.download()[0]);
  }
  std::printf("PASS unreached-sites\n");
}

// CHECK: divide n=4: 25
// CHECK: divide n=0: -1
// CHECK: loops inner=3: 9
// CHECK: loops inner=0: 0
// CHECK: PASS unreached-sites

// The unreached division folds to zero bytes (its value is unused).
// TRACE: staged {line [[#L:]]: 25}
// TRACE: staged {line [[#L]]: 0}
// TRACE: PASS unreached-sites
