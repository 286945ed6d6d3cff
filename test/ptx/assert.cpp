// assert() in a kernel becomes CUDA's __assertfail followed by a trap.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cassert>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(4, 7);
  mstage::kernel([](auto &v) { assert(v[mstage::Thread::get().global.x] == 7); },
                 1, 4)(v);
}

// CHECK: .extern .func __assertfail
// CHECK-NOT: __assert_fail
// CHECK: call.uni __assertfail,
// CHECK: trap;
