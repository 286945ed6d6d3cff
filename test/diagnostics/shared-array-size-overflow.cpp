// A shared_array whose bytes (sizeof(T) times the extents) overflow
// std::size_t, or are over 4 GiB, is a compile error that says so, and so is
// a constant shared_bytes_for whose counts overflow; sizes that fit, up to
// the 4 GiB line, compile (the launch then checks them against the device).
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

using namespace mstage;

int main() {
  std::vector<char> v(64);
  kernel(
      [](auto &v) {
        // CHECK: error: static assertion failed {{.*}}: mstage::shared_array<T, N...>: sizeof(T) times the extents overflows std::size_t or is over 4 GiB, far more shared memory than a block can have
        shared_array<double, std::size_t(1) << 62> wraps; // 2^65 bytes
        // CHECK: error: static assertion failed {{.*}}: mstage::shared_array<T, N...>: sizeof(T) times the extents overflows
        shared_array<char, std::size_t(1) << 32, std::size_t(1) << 32> zero;
        // CHECK: error: static assertion failed {{.*}}: mstage::shared_array<T, N...>: sizeof(T) times the extents overflows
        shared_array<float, std::size_t(1) << 30, 2> eight_gib;
        // CHECK: error: static assertion failed {{.*}}: mstage::shared_array<T, N...>: sizeof(T) times the extents overflows
        shared_array<char, (std::size_t(1) << 32) + 1> just_over;
        // Exactly 4 GiB, and an ordinary tile: no error.
        shared_array<char, 1024, 1024, 4096> four_gib;
        shared_array<float, 16, 17> tile;
        v[0] = wraps[0] + zero[0][0] + eight_gib[0][0] + just_over[0] +
               four_gib[0][0][0] + tile[0][0];
      },
      1, 1)(v);
  // CHECK: error: constexpr variable 'Huge' must be initialized by a constant expression
  // CHECK: note: subexpression not valid in a constant expression
  constexpr std::size_t Huge =
      shared_bytes_for<char, double>(3, std::size_t(1) << 61);
  constexpr std::size_t Fits = shared_bytes_for<char, double>(3, 4);
  static_assert(Fits == 8 + 4 * 8, "padding to double, then 4 doubles");
  return int(Huge + Fits);
}
// CHECK: 5 errors generated.
