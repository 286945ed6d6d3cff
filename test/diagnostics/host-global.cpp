// Host globals are not visible on the GPU; constants are.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

float gain = 2;
const float bias = 0.5f;
constexpr float limit = 100;

struct Config {
  static float scale;
  static constexpr int lanes = 4;
};
float Config::scale = 3;

float count();

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    // CHECK: host-global.cpp:[[@LINE+1]]:12: error: mstage: kernel code uses 'gain', a variable in host memory that the GPU cannot see; pass it as a kernel argument or capture it by value
    a[i] = gain * a[i] + bias;
    // CHECK: host-global.cpp:[[@LINE+1]]:27: error: mstage: kernel code uses 'Config::scale', a variable in host memory
    a[i] = a[i] * Config::scale + Config::lanes;
    a[i] = a[i] < limit ? a[i] : limit;
    a[i] += count();
  }, 1, 16);
  k(v);
}

float count() {
  // A static local of kernel code: test/diagnostics/static-local.cpp.
  // CHECK: host-global.cpp:[[@LINE+1]]:19: error: mstage: static local variable 'n' in kernel code is one object for all threads, in host memory
  static unsigned n;
  static const float step = 0.5f;
  return n + step;
}
// CHECK: host-global.cpp:26:13: note: called from the kernel lambda here
