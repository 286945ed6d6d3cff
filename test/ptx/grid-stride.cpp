// mstage::grid_stride_range in a range-for, with std::atomic_ref: the grid's
// thread count is folded into the stride (64 blocks of 128 threads = 8192),
// with no %ntid or %nctaid read, and fetch_add becomes one atom.global.add.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -std=c++20 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <atomic>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> data(100000, 1), count(1, 0);
  mstage::kernel(
      [](const auto &data, auto &count) {
        for (auto i : mstage::grid_stride_range(0u, unsigned(data.size())))
          if (data[i] > 0)
            std::atomic_ref<int>(count[0]).fetch_add(1);
      },
      64, 128)(data, count);
}

// CHECK: .entry {{_ZN4main[0-9]+kernel_L19E}}(
// CHECK-NOT: %nctaid
// CHECK-NOT: %ntid
// CHECK: 8192
// CHECK: atom.global.add.u32
