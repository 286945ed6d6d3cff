// saxpy: y = a * x + y, the smallest complete mstage program.
#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace mstage;

int main() {
  const size_t n = 1 << 24;
  std::vector<float> x(n), y(n), expected(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) / 7.0f;
    y[i] = float(i % 17);
  }
  const float a = 2.5f;
  for (size_t i = 0; i < n; ++i)
    expected[i] = a * x[i] + y[i];

  auto saxpy = kernel(
      [a](const auto &x, auto &y) {
        auto i = Thread::get().global.x;
        if (i < x.size())
          y[i] = a * x[i] + y[i];
      },
      (n + 255) / 256, 256);
  saxpy(x, y);

  if (mstage_rt_executes() != 1) {
    std::printf("saxpy: compiled to PTX only, result not checked\n");
    return 0;
  }
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(y[i] - expected[i]) > 1e-5f * std::fabs(expected[i])) {
      std::printf("saxpy: FAIL at %zu: %g, expected %g\n", i, y[i],
                  expected[i]);
      return 1;
    }
  std::printf("saxpy: %zu elements PASS\n", n);
  return 0;
}
