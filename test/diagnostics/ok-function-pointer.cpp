// A function pointer taken in kernel code points to a function of the
// device code, and calls through it work; so do template parameters that
// choose a function, and a host function pointer that stage() calls on the
// host (with an __int128 converted to double there). The checks on host
// function pointers and wide conversions leave these alone.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t | FileCheck %s --check-prefix=PTX
// UNSUPPORTED: gpu
#include <mstage.hpp>

#include <cstdio>

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

template <int (*Op)(int)> int apply_fixed(int x) { return Op(x); }
template <class F> int apply(F f, int x) { return f(x); }

int main() {
  std::vector<int> v = {1, 2, 3, 4};
  auto k = mstage::kernel([](mstage::vector_view<int> a) {
    unsigned i = mstage::Thread::get().global.x;
    int (*op)(int) = i % 2 ? thrice : twice;
    a[i] = op(a[i]) + apply(op, 1) + apply_fixed<twice>(1);
  }, 1, 4);
  k(v);
  int (*host_op)(int) = thrice;
  __int128 big = 1000;
  auto k2 = mstage::kernel([host_op, big](mstage::vector_view<int> a) {
    a[0] += mstage::stage(host_op, 5) + int(mstage::stage((double)big));
  }, 1, 1);
  k2(v);
  if (mstage_rt_executes())
    std::printf("%d %d %d %d\n", v[0], v[1], v[2], v[3]);
  else
    std::printf("compiled\n");
}
// CHECK: 1021 11 10 17
// PTX: compiled
