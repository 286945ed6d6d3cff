// <mstage.hpp> gives kernel code the global float overloads of <math.h>'s
// functions, as CUDA does: exp, sqrt, log, abs, floor, tanh and fmin of a
// float are single precision (abs.f32, no f64 anywhere in the loop), not the
// C library's double functions, and abs(float) is not C's int abs (no
// cvt.rzi.s32). The includes of <math.h> and <stdlib.h> before and <cmath>
// after <mstage.hpp> change nothing. (libdevice's sinf, powf and fmodf have
// f64 or integer steps of their own: test/cpu/math-overloads.cpp checks
// that those overloads are the float ones.)
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <math.h>
#include <stdlib.h>

#include <mstage.hpp>

#include <cmath>
#include <vector>

int main() {
  std::vector<float> x(256, 0.5f), y(256);
  mstage::kernel(
      [](const auto &x, auto &y, int n) {
        unsigned i = mstage::Thread::get().global.x;
        float acc = 0;
        for (int k = 0; k < n; ++k) {
          float v = x[(i + k) % 256];
          acc += exp(v) + sqrt(v) + log(v) + abs(v - acc) + floor(v) +
                 tanh(v) + fmin(v, acc);
        }
        y[i] = acc;
      },
      1, 256)(x, y, 16);
}

// CHECK: .entry
// CHECK-DAG: abs.f32
// CHECK-DAG: ex2.approx
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-NOT: .f64
// CHECK-NOT: cvt.rzi.s32.f32
