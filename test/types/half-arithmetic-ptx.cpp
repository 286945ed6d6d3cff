// mstage::half and mstage::bfloat16 arithmetic lowers to the f16 and bf16
// instructions on sm_90, not to a round trip through float: clang computes
// _Float16/__bf16 in float on x86-64 (excess precision), and the device
// optimizer narrows each fpext/op/fptrunc back to one half or bfloat
// operation. Comparisons are setp on f16/bf16. (Division has no f16
// instruction in PTX: NVPTX does it in float, which rounds the same.)
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: ls %t.dump/*.ptx | xargs -I{} %ptxas -arch=sm_90 {} -o /dev/null
// RUN: %mstage_ptx %t --kernel 'run<mstage::half>::kernel_L24' --ir --block=32 2>&1 | FileCheck %s --check-prefix=HALF-IR
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

template <class T> void run() {
  std::vector<T> a(32), b(32), out(32);
  std::vector<int> less(32);
  kernel(
      [](const auto &a, const auto &b, auto &out, auto &less) {
        auto i = Thread::get().global.x;
        T x = a[i], y = b[i];
        out[i] = (x + y) * (x - y);
        less[i] = x < y;
      },
      1, 32)(a, b, out, less);
}

int main() {
  run<bfloat16>();
  run<half>();
}

// CHECK-LABEL: .entry _ZN3runIN6mstage4halfEE{{[0-9]+}}kernel_L
// CHECK-NOT:   cvt.f32.f16
// CHECK-DAG:   add.rn.f16
// CHECK-DAG:   sub.rn.f16
// CHECK-DAG:   mul.rn.f16
// CHECK-DAG:   setp.lt.f16
// CHECK-NOT:   cvt.f32.f16

// HALF-IR-NOT: fpext
// HALF-IR:     fadd half
// HALF-IR-NOT: fpext
// CHECK-LABEL: .entry _ZN3runIN6mstage8bfloat16EE{{[0-9]+}}kernel_L
// CHECK-NOT:   cvt.f32.bf16
// CHECK-DAG:   add.rn.bf16
// CHECK-DAG:   sub.rn.bf16
// CHECK-DAG:   mul.rn.bf16
// CHECK-DAG:   setp.lt.bf16
// CHECK-NOT:   cvt.f32.bf16
