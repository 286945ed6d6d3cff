// With checks on (-fmstage-checks, MSTAGE_BOUNDS_CHECK=1 or an -O0 build), a block barrier
// counts the threads that reach it (bar.red.popc) and reports, with its
// file:line, when fewer than the block's threads did: here threads 64 and up
// return first. With the block folded, the count is compared with the
// constant 128. Release code (-DNDEBUG) keeps the plain bar.sync.
//
// RUN: %mstagexx -O2 -fmstage-checks %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L22 --block 128 | FileCheck %s
// RUN: %mstage_ptx %t --kernel main::kernel_L22 --ir | FileCheck %s --check-prefix=IR
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t.release
// RUN: %mstage_ptx %t.release --kernel main::kernel_L22 --block 128 | FileCheck %s --check-prefix=RELEASE
// RUN: env MSTAGE_ARCH=sm_90 %t
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> Out(128);
  mstage::kernel(
      [](auto &Out) {
        unsigned T = mstage::Thread::get().index.x;
        if (T >= 64)
          return;
        Out[T] = int(T);
        mstage::Block::get().synchronize();
        Out[T] += Out[63 - T];
      },
      1, 128)(Out);
}

// CHECK: .entry {{_ZN4main[0-9]+kernel_L22E}}(
// CHECK: bar.red.popc.u32 [[N:%r[0-9]+]], 0, {{%p[0-9]+}};
// CHECK: setp.{{eq|ne}}.{{s32|b32}} {{%p[0-9]+}}, [[N]], 128;
// CHECK: call.uni (retval0), vprintf,
// CHECK: call.uni __assertfail,
// CHECK-NOT: bar.sync

// IR-DAG: c"%s:%u: %s: mstage: divergent barrier: %u of the block's %u threads reached it (the others returned or skipped it)\0A\00"
// IR-DAG: barrier-check.cpp
// IR-DAG: call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 true)

// RELEASE: .entry {{_ZN4main[0-9]+kernel_L22E}}(
// RELEASE: bar.sync 0;
// RELEASE-NOT: bar.red
// RELEASE-NOT: __assertfail
