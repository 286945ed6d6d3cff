// stage() and control flow. A staged value chosen by a branch on the thread
// index is an error that names the branch and what it reads; a stage() call
// that merely sits under such a branch, with a value the branch does not
// change, is fine (its value is the same for every thread). A stage() site
// in a recursive function is one error at the call that leads to it, not
// one per inlined level, and it names the function.
//
// RUN: not %mstagexx -O2 -c -DBAD %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O0 -c -DBAD %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -O2 -c -DREC %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REC --implicit-check-not=error:
// RUN: not %mstagexx -O0 -c -DREC %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REC --implicit-check-not=error:
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s --check-prefix=OK

#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

#ifdef REC
int depth(int n) {
  // REC: misuse-branches.cpp:[[@LINE+1]]:23: error: mstage: this call reaches a stage() site from 'depth(int)', which calls itself; recursion cannot be inlined into the kernel, so a stage() site in it has no fixed place: stage the value outside the recursion and pass it down
  return n <= 0 ? int(stage(7)) : depth(n - 1) + 1;
}
#endif

int main() {
  int n = 6;
  std::vector<int> out(64);
  auto k = kernel(
      [n](auto &o) {
        unsigned t = Thread::get().index.x;
        int r = 0;
        if (t < 5)
          r = stage(n * 2); // under the branch, not chosen by it
#ifdef BAD
        int v = n;
        if (t < 5)
          v = 100 / n; // a division is not speculated: a real branch
        // CHECK: misuse-branches.cpp:[[@LINE+1]]:14: error: mstage: the value passed to stage() is chosen by the branch at {{.*}}misuse-branches.cpp:[[@LINE-2]]:{{[0-9]+}}, which depends on the thread index (Thread::get()), read at {{.*}}misuse-branches.cpp:[[@LINE-8]]:{{[0-9]+}}
        r += stage(v);
#endif
#ifdef REC
        r += depth(n);
#endif
        o[t] = r;
      },
      1, 64);
  k(out);
  bool ok = true;
  for (int t = 0; t < 64; ++t)
    ok &= out[t] == (t < 5 ? 12 : 0);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
// OK: PASS
