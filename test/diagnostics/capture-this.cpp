// A kernel lambda must not capture 'this': the object is in host memory.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

struct Scaler {
  float factor = 2;

  void run(std::vector<float> &v) {
    // CHECK: capture-this.cpp:[[@LINE+1]]:30: error: mstage: kernel lambda captures 'this'; the object it points to is in host memory. Copy the members you need into local variables and capture those, or capture a copy of the object with [*this]
    auto k = mstage::kernel([this](mstage::vector_view<float> a) {
      a[mstage::Thread::get().global.x] *= factor;
    }, 1, 16);
    k(v);

    // CHECK: capture-this.cpp:[[@LINE+2]]:30: error: mstage: kernel lambda captures 'this'; the object it points to is in host memory.
    // CHECK: capture-this.cpp:[[@LINE+2]]:44: note: 'this' is captured because it is used here
    auto k2 = mstage::kernel([&](mstage::vector_view<float> a) {
      a[mstage::Thread::get().global.x] += factor;
    }, 1, 16);
    k2(v);

    // A copy of a trivially copyable object is fine.
    auto k3 = mstage::kernel([*this](mstage::vector_view<float> a) {
      a[mstage::Thread::get().global.x] -= factor;
    }, 1, 16);
    k3(v);
  }
};

int main() {
  std::vector<float> v(16);
  Scaler().run(v);
}
