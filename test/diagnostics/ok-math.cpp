// Math functions that the device library provides, and standard algorithms
// whose body is in the headers, are fine in a kernel.
// RUN: %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error:
#include <mstage.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>

int main() {
  std::vector<float> v(16);
  std::vector<double> w(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a,
                             mstage::vector_view<double> b) {
    unsigned i = mstage::Thread::get().global.x;
    float x = a[i];
    x = std::sqrt(x) + std::exp(x) + std::log(x) + std::pow(x, 2.0f) +
        std::sin(x) + std::cos(x) + std::tanh(x) + std::fma(x, x, x) +
        std::floor(x) + std::round(x) + std::fabs(x) + std::abs(x);
    x = std::min(x, 1.0f) + std::max(x, 0.0f) + std::clamp(x, 0.0f, 1.0f) +
        std::fmin(x, 2.0f) + std::fmax(x, -2.0f) + std::copysign(x, -1.0f);
    x += std::isnan(x) + std::isinf(x) + std::isfinite(x) + std::signbit(x);
    x += sqrtf(x) + expf(x) + powf(x, 3.0f) + fabsf(x) + fminf(x, 1.0f);
    x += std::abs(int(x)) + std::abs(long(x));
    x = x < std::numeric_limits<float>::max() ? x : 0;
    float tmp[2];
    std::memcpy(tmp, &x, sizeof x);
    std::memset(tmp + 1, 0, sizeof(float));
    std::swap(tmp[0], tmp[1]);
    a[i] = x + tmp[1];
    b[i] = std::sqrt(b[i]) + sqrt(b[i]) + std::erf(b[i]) + std::hypot(b[i], 1.0);
    mstage::Block::get().synchronize();
  }, 1, 16);
  k(v, w);
}
