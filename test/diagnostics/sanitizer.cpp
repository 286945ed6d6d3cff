// With -fsanitize=undefined (or address), the code that kernels reach is
// not instrumented, since the sanitizer runtime is on the host; the rest of
// the program keeps its checks. The kernel compiles, for PTX too, and runs.
// A non-inline function is generated (with its checks) before mstage knows
// that a kernel calls it: that is an error that says what to do.
// RUN: %mstagexx -O1 -fsanitize=undefined %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 7 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 7 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: %mstagexx -O1 -fsanitize=address -c %s -o %t.o
// RUN: not %mstagexx -O1 -fsanitize=undefined -DEAGER -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=EAGER --implicit-check-not=error:
// RUN: %mstagexx -O1 -fsanitize=address -DEAGER -c %s -o %t.o
// UNSUPPORTED: gpu
#include <mstage.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>

template <class V> void scale(V &a, int by) {
  unsigned i = mstage::Thread::get().global.x;
  a[i] = a[i] * by + (a[i] << 2);
}

#ifdef EAGER
// EAGER: sanitizer.cpp:[[@LINE+1]]:5: error: mstage: kernel code calls 'offset', which was compiled with the sanitizer's checks before mstage saw that kernels use it, and the checks cannot run on the GPU; declare it 'inline' or 'static', or give it __attribute__((no_sanitize("all")))
int offset(int x) { return x + 1; }
#else
static int offset(int x) { return x + 1; }
#endif

int main(int argc, char **argv) {
  std::vector<int> v = {1, 2, 3, 4};
  int by = argc > 1 ? std::atoi(argv[1]) : 1;
  auto k = mstage::kernel(
      [by](mstage::vector_view<int> a) { scale(a, offset(by) - 1); }, 1, 4);
  k(v);
  if (mstage_rt_executes())
    std::printf("%d %d %d %d\n", v[0], v[1], v[2], v[3]);
  else
    std::printf("compiled\n");
  // Host code is still checked.
  int big = INT_MAX - 5;
  big += by;
  std::printf("%d\n", big);
}
// CHECK-DAG: 11 22 33 44
// CHECK-DAG: sanitizer.cpp:[[#@LINE-4]]:7: runtime error: signed integer overflow
// PTX-DAG: compiled
// PTX-DAG: sanitizer.cpp:[[#@LINE-6]]:7: runtime error: signed integer overflow
