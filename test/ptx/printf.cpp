// printf in a kernel becomes CUDA's vprintf with the arguments packed in a
// buffer; the format strings become device globals.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(4, 7);
  mstage::kernel(
      [](auto &v) {
        unsigned i = mstage::Thread::get().global.x;
        std::printf("thread %u: %d %.1f\n", i, v[i % 4], 0.5f * i);
        std::printf("done\n");
      },
      1, 4)(v);
}

// CHECK: .extern .func (.param .b32 func_retval0) vprintf
// CHECK-NOT: printf(
// CHECK: .global .align 1 .b8 {{.*}}[20] = {116, 104, 114
// CHECK: call.uni (retval0), vprintf, (param0, param1);
// CHECK: call.uni (retval0), vprintf, (param0, param1);
