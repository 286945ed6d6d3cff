// Fast math is per kernel (Kernel::fast_math()) or for every kernel
// (MSTAGE_FAST_MATH=1), as nvcc's --use_fast_math: single-precision
// division, sqrt and sin become approximate with denormals flushed, expf
// becomes libdevice's fast version (ex2.approx), and double precision stays
// IEEE. Other kernels of the same program keep IEEE math.
//
// RUN: rm -rf %t.dump %t.all && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: cat %t.dump/_ZN10fastKernel*.ptx | FileCheck %s --check-prefix=FAST
// RUN: cat %t.dump/_ZN10ieeeKernel*.ptx | FileCheck %s --check-prefix=IEEE
// RUN: %ptxas -arch=sm_90 %t.dump/_ZN10fastKernel*.ptx -o /dev/null
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_FAST_MATH=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.all %t
// RUN: cat %t.all/_ZN10ieeeKernel*.ptx | FileCheck %s --check-prefix=FAST
// mstage-ptx --fast-math shows the same code without running the program.
// RUN: %mstage_ptx %t --kernel ieeeKernel::kernel_L42 --block 128 --fast-math | FileCheck %s --check-prefix=FAST
// RUN: %mstage_ptx %t --kernel ieeeKernel::kernel_L42 --block 128 | FileCheck %s --check-prefix=IEEE
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cmath>
#include <mstage.hpp>
#include <vector>

template <class K> void run(K k) {
  std::vector<float> x(256, 2.0f), y(256);
  std::vector<double> d(256, 3.0);
  k(x, y, d);
}

template <class X, class Y, class D> void compute(const X &x, Y &y, D &d) {
  auto i = mstage::Thread::get().global.x;
  y[i] = std::sqrt(x[i]) / x[i + 1] + std::sin(x[i]) + std::exp(x[i]);
  d[i] = d[i] / d[i + 1] + std::sqrt(d[i]);
}

void fastKernel() {
  run(mstage::kernel([](const auto &x, auto &y, auto &d) { compute(x, y, d); },
                     1, 128)
          .fast_math());
}
void ieeeKernel() {
  run(mstage::kernel([](const auto &x, auto &y, auto &d) { compute(x, y, d); },
                     1, 128));
}

int main() {
  fastKernel();
  ieeeKernel();
}

// TRACE: kernel 'fastKernel::kernel_L{{.*}}' grid 1x1x1 block 128x1x1 shared 0 fast-math staged
// TRACE: kernel 'ieeeKernel::kernel_L{{.*}}' grid 1x1x1 block 128x1x1 shared 0 staged

// FAST-DAG: sqrt.approx.ftz.f32
// FAST-DAG: div.approx.ftz.f32
// FAST-DAG: sin.approx.ftz.f32
// FAST-DAG: ex2.approx.ftz.f32
// FAST-DAG: div.rn.f64
// FAST-DAG: sqrt.rn.f64
// FAST-NOT: div.rn.f32
// FAST-NOT: sqrt.rn.f32

// IEEE-DAG: sqrt.rn.f32
// IEEE-DAG: div.rn.f32
// IEEE-DAG: div.rn.f64
// IEEE-NOT: approx
// IEEE-NOT: ftz
