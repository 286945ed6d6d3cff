// saxpy compiled to PTX for sm_90 without a GPU: the kernel is extracted, math
// is IEEE-exact by default, and ptxas accepts the result.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_FAST_MATH=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.fast %t
// RUN: cat %t.fast/*.ptx | FileCheck %s --check-prefix=FAST
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cmath>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<float> x(1000, 4.0f), y(1000, 1.0f);
  float a = 2.0f;
  auto k = mstage::kernel(
      [a](const auto &x, auto &y) {
        auto i = mstage::Thread::get().global.x;
        if (i < x.size())
          y[i] = a * std::sqrt(x[i]) + y[i] / 3.0f;
      },
      4, 256);
  k(x, y);
}

// CHECK: .target sm_90
// CHECK: .visible .entry {{_ZN4main[0-9]+kernel_L}}[[#]]E(
// CHECK: .param .align 4 .b8 {{_ZN4main[0-9]+kernel_L}}[[#]]E_param_0[4]
// CHECK: mov.u32 {{.*}}%tid.x
// CHECK: ld.global
// CHECK: sqrt.rn.f32
// CHECK: div.rn.f32
// CHECK: st.global

// FAST: sqrt.approx.ftz.f32
