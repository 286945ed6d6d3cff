// A by-value capture must be trivially copyable: a std::vector owns host
// memory, so it has to be passed as a kernel argument.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<float> v(16), weights(16, 1.0f);
  // CHECK: capture-vector.cpp:[[@LINE+1]]:28: error: mstage: kernel lambda captures 'weights' by value, but its type 'std::vector<float>' is not trivially copyable and cannot be copied to the GPU; pass it as a kernel argument instead
  auto k = mstage::kernel([weights](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    a[i] *= weights[i];
  }, 1, 16);
  k(v);
}
