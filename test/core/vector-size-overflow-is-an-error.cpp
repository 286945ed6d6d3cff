// A count whose size in bytes does not fit in size_t (a negative count
// converted to size_t) is an mstage::error naming the container, the count
// and the element size, from every constructor and resize(), instead of an
// allocation of the wrapped-around size. So is a size the allocator cannot
// round up. pinned_vector, a std::vector, throws std::length_error.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

static void attempt(const char *What, const std::function<void()> &F) {
  try {
    F();
    std::printf("%s: no error\n", What);
  } catch (const mstage::error &E) {
    std::printf("%s: %s\n", What, E.what());
  } catch (const std::length_error &) {
    std::printf("%s: std::length_error\n", What);
  }
}

int main() {
  const std::size_t Minus1 = std::size_t(-1);
  const std::size_t Max = std::numeric_limits<std::size_t>::max();
  attempt("device_vector<double>(-1)",
          [&] { mstage::device_vector<double> V(Minus1); });
  // CHECK: device_vector<double>(-1): mstage: device_vector of 18446744073709551615 elements of 8 bytes: the size in bytes does not fit in size_t
  attempt("device_vector<double>(-1, 1.0)",
          [&] { mstage::device_vector<double> V(Minus1, 1.0); });
  // CHECK: device_vector<double>(-1, 1.0): mstage: device_vector of 18446744073709551615 elements of 8 bytes
  attempt("device_vector<int>(max/2, stream)", [&] {
    mstage::device_vector<int> V(Max / 2, mstage::current_stream());
  });
  // CHECK: device_vector<int>(max/2, stream): mstage: device_vector of 9223372036854775807 elements of 4 bytes
  attempt("resize(-1)", [&] {
    mstage::device_vector<float> V(3, 1.f);
    V.resize(Minus1);
  });
  // CHECK: resize(-1): mstage: device_vector of 18446744073709551615 elements of 4 bytes
  attempt("managed_vector<int>(-1)",
          [&] { mstage::managed_vector<int> V(Minus1); });
  // CHECK: managed_vector<int>(-1): mstage: managed_vector of 18446744073709551615 elements of 4 bytes
  attempt("managed_vector<double>(max/8 + 1, 2.0)",
          [&] { mstage::managed_vector<double> V(Max / 8 + 1, 2.0); });
  // CHECK: managed_vector<double>(max/8 + 1, 2.0): mstage: managed_vector of 2305843009213693952 elements of 8 bytes
  // The byte count fits, but rounding it up to the alignment would wrap.
  attempt("device_vector<char>(max)",
          [&] { mstage::device_vector<char> V(Max); });
  // CHECK: device_vector<char>(max): mstage: {{.*}}out of host memory: 18446744073709551615 bytes
  attempt("managed_vector<char>(max - 1)",
          [&] { mstage::managed_vector<char> V(Max - 1); });
  // CHECK: managed_vector<char>(max - 1): mstage: {{.*}}out of host memory
  attempt("pinned_vector<double>(-1)",
          [&] { mstage::pinned_vector<double> V(Minus1); });
  // CHECK: pinned_vector<double>(-1): std::length_error
  // The largest count that fits still works for small sizes.
  mstage::device_vector<double> Ok(5, 2.5);
  std::printf("ok: %zu\n", Ok.size());
  // CHECK: ok: 5
}
