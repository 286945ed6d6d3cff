// A function pointer that comes from the host holds a host address, which
// the GPU cannot call. Calling one in kernel code, or passing it on to a
// function, is an error that names the capture, kernel argument or member
// it comes from.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

static int twice(int x) { return 2 * x; }

struct Ops {
  int (*op)(int);
  int scale;
};

template <class F> int apply(F f, int x) { return f(x); }

struct Functor {
  int (*op)(int);
  void operator()(mstage::vector_view<int> a) const {
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:12: error: mstage: kernel code calls a function through member 'op' of the kernel object, a function pointer that comes from the host; the GPU cannot call host functions. Call the function by name, or choose it with a template parameter
    a[0] = op(a[0]);
  }
};

int main() {
  std::vector<int> v(16);
  auto k3 = mstage::kernel(Functor{twice}, 1, 1);
  k3(v);
  int (*fp)(int) = twice;
  Ops ops = {twice, 3};
  auto k = mstage::kernel([fp, ops](mstage::vector_view<int> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:12: error: mstage: kernel code calls a function through capture 'fp', a function pointer that comes from the host; the GPU cannot call host functions. Call the function by name, or choose it with a template parameter
    a[i] = fp(a[i]);
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:13: error: mstage: kernel code calls a function through 'ops.op' (in capture 'ops'), a function pointer that comes from the host
    a[i] += ops.op(ops.scale);
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:19: error: mstage: kernel code passes capture 'fp', a function pointer that comes from the host, to a function; the GPU cannot call host functions
    a[i] += apply(fp, 1);
    // CHECK: host-function-pointer.cpp:[[@LINE+2]]:18: error: mstage: kernel code calls a function through capture 'fp', a function pointer that comes from the host
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:5: note: called from the kernel lambda here
    [&] { a[i] = (*fp)(a[i]); }();
  }, 1, 16);
  k(v);
  auto k2 = mstage::kernel([](mstage::vector_view<int> a, int (*f)(int)) {
    // CHECK: host-function-pointer.cpp:[[@LINE+1]]:12: error: mstage: kernel code calls a function through kernel argument 'f', a function pointer that comes from the host
    a[0] = f(a[0]);
  }, 1, 1);
  k2(v, &twice);
}
