// thread_local variables do not exist on the GPU.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

thread_local unsigned calls;

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    // CHECK: thread-local.cpp:[[@LINE+1]]:41: error: mstage: kernel code uses thread_local variable 'calls'; thread_local is not supported in kernels. Use a local variable, or pass the value as a kernel argument
    a[mstage::Thread::get().global.x] = calls;
  }, 1, 16);
  k(v);
}
