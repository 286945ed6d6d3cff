// The thesis's Listing 3.45 ("Using modern C++ to improve CUDA programs",
// section 3.6.4) in mstage: the graph A -> (B, C) -> D of Listing 3.44,
// written with co_await instead of stream capture and events. Shared by
// examples/coroutines.cpp and the GPU suite's coawait.
//
// As in the listing, apart from these completions: the kernels compute
// something checkable (x = i % 1000, y = 2x, z = x + 1, w = y * z); B and C
// run on two streams, so that they may overlap; "co_await wait(B, C)" is the
// listing's alternative "co_await B; co_await C;".
#ifndef MSTAGE_EXAMPLES_LISTING345_H
#define MSTAGE_EXAMPLES_LISTING345_H

#include <mstage.hpp>

#include <utility>
#include <vector>

namespace listing345 {

// w[i] as the host computes it.
inline int reference(unsigned i) {
  int x = int(i % 1000);
  return (2 * x) * (x + 1);
}

// The coroutine of Listing 3.45 over n elements; its result is w.
inline mstage::task<std::vector<int>> func(unsigned n) {
  using namespace mstage;
  device_vector<int> x(n), y(n), z(n), w(n);
  const unsigned block = 256, grid = (n + block - 1) / block;
  auto kernel_A = kernel(
      [](auto &x) {
        unsigned i = Thread::get().global.x;
        if (i < x.size())
          x[i] = int(i % 1000);
      },
      grid, block);
  auto kernel_B = kernel(
      [](auto &y, const auto &x) {
        unsigned i = Thread::get().global.x;
        if (i < y.size())
          y[i] = 2 * x[i];
      },
      grid, block);
  auto kernel_C = kernel(
      [](auto &z, const auto &x) {
        unsigned i = Thread::get().global.x;
        if (i < z.size())
          z[i] = x[i] + 1;
      },
      grid, block);
  auto kernel_D = kernel(
      [](auto &w, const auto &y, const auto &z) {
        unsigned i = Thread::get().global.x;
        if (i < w.size())
          w[i] = y[i] * z[i];
      },
      grid, block);
  stream s1, s2;

  // Launch A and wait
  co_await async(launch::kernel, kernel_A, x);

  // Launch B and C when A is done
  // (x is read by both: passed const, so MSTAGE_CHECK=streams sees reads)
  auto kern_B = async(launch::kernel, kernel_B.on(s1), y, std::as_const(x));
  auto kern_C = async(launch::kernel, kernel_C.on(s2), z, std::as_const(x));

  // Wait for B and C to finish before launching D
  co_await kern_B;
  co_await kern_C;

  // Launch D, wait, and return
  co_await async(launch::kernel, kernel_D, w, std::as_const(y),
                 std::as_const(z));
  co_return w.download();
}

} // namespace listing345

#endif
