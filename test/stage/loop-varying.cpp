// A stage() site is evaluated once per launch. A site that can run more than
// once per thread with a different value each time (in a loop, over the
// loop's variable, or through a helper called with a different argument in
// each iteration) cannot be folded: it is an error at the stage() call that
// names the loop, never a fold of the first iteration's value (which is what
// mstage did: this kernel stored 20 on the GPU and 60030 on the CPU).
//
// RUN: not %mstagexx -O2 -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O0 -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:

#include <mstage.hpp>
#include <vector>

using namespace mstage;

// CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:53: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE+16]] and its value can change from one iteration to the next; a stage() site is evaluated once per launch, so it cannot take a value per iteration: stage the value before the loop, or stage what the iterations need at once (for example a std::array of the values)
template <class V> unsigned sz(const V &v) { return stage(unsigned(v.size())); }

struct Pair {
  int a, b;
};

int main() {
  int n = 4;
  std::vector<int> a(10), b(20), out(32);
  auto k = kernel(
      [n](const auto &a, const auto &b, auto &o) {
        int acc = 0;
        // CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:44: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE+1]] and its value
        for (int j = 0; j < n; ++j) acc += stage(j * 10);
        unsigned s = 0;
        for (int r = 0; r < 2; ++r) s += sz(r == 0 ? a : b);
        // A value carried from one iteration to the next.
        int carried = 1;
        for (int r = 0; r < n; ++r) {
          // CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:22: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE-1]] and its value
          carried += stage(carried);
        }
        // Chosen by a branch on the loop variable.
        int chosen = 0;
        for (int r = 0; r < n; ++r) {
          int v = r % 2 ? 5 : 7;
          if (r == 2)
            v = a.size();
          // CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:21: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE-4]] and its value
          chosen += stage(v);
        }
        // Read through a lambda that captures the loop variable by reference.
        int viaRef = 0;
        for (int r = 0; r < 3; ++r)
          // CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:21: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE-1]] and its value
          viaRef += stage([&] { return r + 1; });
        // A struct whose field is the inner loop's variable: the error names
        // the inner loop.
        int nested = 0;
        for (int r = 0; r < 2; ++r)
          for (int q = 0; q < 2; ++q)
            // CHECK-DAG: loop-varying.cpp:[[@LINE+1]]:23: error: mstage: this stage() call is in the loop at loop-varying.cpp:[[@LINE-1]] and its value
            nested += stage(Pair{n, q}).b;
        o[Thread::get().global.x] =
            acc * 1000 + int(s) + carried + chosen + viaRef + nested;
      },
      1, 32);
  k(a, b, out);
}
