// A run-time count whose bytes overflow std::size_t is not taken modulo
// 2^64: shared_arena::take reports it as needing more than the launch gave
// (before, (2^61 + 1) doubles took 8 bytes and passed the check), and
// shared_bytes_for throws an mstage::error. Counts that fit still work, and
// match a host computation of the layout.
//
// RUN: %mstagexx -O2 -DMSTAGE_BOUNDS_CHECK=1 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 4 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env MSTAGE_BACKEND=cpu not --crash %t 2305843009213693953 2>&1 | FileCheck %s --check-prefix=TAKE

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  std::size_t N = std::strtoull(argv[1], nullptr, 10);
  // 3 chars, padding to 8, then N doubles: 8 + 8 * N bytes when that fits.
  try {
    // OK: shared_bytes_for: [[BYTES:[0-9]+]], expected [[BYTES]]
    std::printf("shared_bytes_for: %zu, expected %zu\n",
                mstage::shared_bytes_for<char, double>(3, N), 8 + 8 * N);
  } catch (const mstage::error &E) {
    // TAKE: mstage: shared_bytes_for<T...>(n...): the counts' bytes overflow std::size_t
    std::printf("%s\n", E.what());
  }
  std::fflush(stdout);
  std::vector<double> out(1, -1);
  mstage::kernel(
      [](mstage::vector_view<double> out, std::size_t N) {
        mstage::shared_arena arena;
        auto tag = arena.take<char>(3);
        // TAKE: shared-arena-count-overflow-is-reported.cpp:[[@LINE+1]]: {{.*}}: mstage: the kernel needs 18446744073709551615 bytes of dynamic shared memory, the launch gave 64
        auto d = arena.take<double>(N);
        tag[0] = 1;
        d[0] = 2.5;
        out[0] = double(arena.used()) + tag[0] + d[0];
      },
      1, 1, 64)(out, N);
  // OK: used [[USED:[0-9]+]], expected [[USED]]
  std::printf("used %g, expected %g\n", out[0] - 3.5, 8.0 + 8.0 * double(N));
}
