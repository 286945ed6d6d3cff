// A kernel cannot launch another kernel: the launch is an error at the call
// in kernel code that says nested launches are not supported, through
// mstage::async too.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<int> v(16);
  auto inner = mstage::kernel([](mstage::vector_view<int> a) { a[0] = 1; }, 1, 1);
  auto k = mstage::kernel([inner](mstage::vector_view<int> a) {
    // CHECK: nested-launch.cpp:[[@LINE+1]]:5: error: mstage: kernel code launches a kernel; nested launches are not supported. Launch each kernel from host code
    inner(a);
    // CHECK: nested-launch.cpp:[[@LINE+1]]:5: error: mstage: kernel code launches a kernel; nested launches are not supported
    mstage::async(mstage::launch::kernel, inner, a);
  }, 1, 16);
  k(v);
  inner(v); // from the host: fine
}
