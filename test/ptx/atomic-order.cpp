// std::atomic_ref read-modify-writes keep their memory order on the GPU.
// LLVM 22's NVPTX back end emits every atomicrmw as a relaxed atom, so mstage
// puts the ordering into fences of the same scope (device, .gpu, which is what
// std::atomic_ref gets in a kernel; see atomic-scope.cpp for block scope):
// seq_cst is fence.sc before and fence.acq_rel after, acquire a fence after,
// release a fence before, and relaxed no fence.
//
// A release build (NDEBUG): no bounds checks between the atomics.
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG -std=c++20 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <atomic>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> c(4, 0);
  mstage::kernel(
      [](auto &c) {
        std::atomic_ref<int>(c[0]).fetch_add(1);
        std::atomic_ref<int>(c[1]).fetch_add(2, std::memory_order_relaxed);
        std::atomic_ref<int>(c[2]).fetch_add(3, std::memory_order_acquire);
        std::atomic_ref<int>(c[3]).fetch_add(4, std::memory_order_release);
      },
      1, 32)(c);
}

// CHECK: fence.sc.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 1;
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 2;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 3;
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 4;
