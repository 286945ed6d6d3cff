// A stage() site in a loop whose value is the same in every iteration is
// folded once, with that value: a grid-stride loop bounded by a staged size,
// a capture, a chain of staged values, a helper called with the same
// argument, a value chosen by a branch on a capture, a nested loop, and a
// lambda that captures an unchanging variable by reference. The trace shows
// the folded values; the CPU back end's result (each stage() runs there in
// every iteration) must equal the host's.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=OUT
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s --check-prefix=OUT
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: %mstagexx -O0 %s -o %t0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t0 | FileCheck %s --check-prefix=OUT

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

template <class V> unsigned sz(const V &v) { return stage(unsigned(v.size())); }

int reference(int n, int flag, unsigned size) {
  int acc = 0;
  for (int j = 0; j < n; ++j)
    acc += n * 3;
  for (int j = 0; j < n; ++j) {
    int a = n + 1;
    acc += a * 2;
  }
  for (int r = 0; r < 2; ++r)
    acc += int(size);
  for (int r = 0; r < n; ++r) {
    int v = n > 2 ? 5 : 7;
    if (flag)
      v = 9;
    acc += v;
  }
  for (int r = 0; r < 2; ++r)
    for (int q = 0; q < 3; ++q)
      acc += n * 100 + r * 0 + q * 0;
  int m = n * 2;
  for (int r = 0; r < 3; ++r)
    acc += m;
  return acc;
}

int main() {
  int n = 4, flag = 1;
  std::vector<int> in(1000, 1), out(32);
  auto k = kernel(
      [n, flag](const auto &in, auto &o) {
        int sum = 0;
        for (unsigned i = Thread::get().index.x; i < stage(in.size());
             i += Block::get().range.x)
          sum += in[i];
        int acc = 0;
        for (int j = 0; j < n; ++j)
          acc += stage(n * 3);
        for (int j = 0; j < n; ++j) {
          int a = stage(n + 1);
          acc += stage(a * 2);
        }
        for (int r = 0; r < 2; ++r)
          acc += int(sz(in));
        for (int r = 0; r < n; ++r) {
          int v = n > 2 ? 5 : 7;
          if (flag)
            v = 9;
          acc += stage(v);
        }
        for (int r = 0; r < 2; ++r)
          for (int q = 0; q < 3; ++q)
            acc += stage(n * 100);
        int m = n * 2;
        for (int r = 0; r < 3; ++r)
          acc += stage([&] { return m; });
        o[Thread::get().index.x] = acc * 10000 + sum;
      },
      1, 32);
  k(in, out);
  if (mstage_rt_executes() != 1)
    return 0; // PTX only: the trace is the test
  int sum = 0;
  for (int t = 0; t < 32; ++t)
    sum += out[t] % 10000;
  bool ok = sum == 1000;
  for (int t = 0; t < 32; ++t)
    ok &= out[t] / 10000 == reference(n, flag, in.size());
  std::printf("%s %d\n", ok ? "PASS" : "FAIL", out[0] / 10000);
  return ok ? 0 : 1;
}
// OUT: PASS [[#]]
// TRACE: staged {line 55: 1000, line 78: 8, line 75: 400, line 71: 9, line 22: 1000, line 62: 5, line 63: 10, line 60: 12}
