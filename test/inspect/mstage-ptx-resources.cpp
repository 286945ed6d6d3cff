// mstage-ptx --resources reports what ptxas -v says the specialization
// uses, and the theoretical occupancy that follows for the launch:
//  - registers and spills are ptxas's own numbers for the same PTX (the
//    checks capture them from a separate ptxas -v run of --ptx's output);
//  - shared memory is the 16x17 float tile: 1088 bytes;
//  - the dynamically indexed local array lives on the stack (local
//    memory): ptxas's stack frame, at least its 256 bytes;
//  - occupancy on sm_90 (64 warps, 228 KiB of shared memory an SM, 1 KiB
//    reserved a block): 256 threads with 100000 bytes of dynamic shared
//    memory fit 233472 / (1088 + 100000 + 1024) = 2 blocks, 16 of 64 warps:
//    25%, limited by shared memory; with 300000 bytes none fits.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --block 16,16 > %t.ptx
// RUN: %ptxas -v -arch=sm_90 %t.ptx -o /dev/null > %t.ptxas 2>&1
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --block 16,16 --resources > %t.res
// RUN: cat %t.ptxas %t.res | FileCheck %s
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --block 16,16 --shared 100000 --resources | FileCheck %s --check-prefix=SHARED
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --block 16,16 --shared 300000 --resources | FileCheck %s --check-prefix=TOOBIG
// RUN: %mstage_ptx %t --kernel main::kernel_L42 --block 16,16 --resources --arch sm_86 | FileCheck %s --check-prefix=SM86
// REQUIRES: ptxas

#include <mstage.hpp>
#include <vector>

// CHECK: [[STACK:[1-9][0-9][0-9]+]] bytes stack frame
// CHECK-SAME: [[STORES:[0-9]+]] bytes spill stores, [[LOADS:[0-9]+]] bytes spill loads
// CHECK: Used [[REGS:[0-9]+]] registers
// CHECK: {{_ZN4main[0-9]+kernel_L42E}} (main::kernel_L{{[0-9]+}}@{{.*}}mstage-ptx-resources.cpp:42:7)
// CHECK-NEXT: registers [[REGS]], spill stores [[STORES]] B, spill loads [[LOADS]] B, stack (local) [[STACK]] B, shared 1088 B, barriers 1
// CHECK-NEXT: occupancy {{[0-9]+}}% ({{[0-9]+}} blocks of 256 threads per SM on sm_90, limited by

// SHARED: shared 1088 B + 100000 B dynamic
// SHARED: occupancy 25% (2 blocks of 256 threads per SM on sm_90, limited by shared memory)
// TOOBIG: occupancy 0% (0 blocks of 256 threads per SM on sm_90, limited by shared memory)
// SM86: occupancy {{[0-9]+}}% ({{[0-9]+}} blocks of 256 threads per SM on sm_86

int main() {
  std::vector<float> in(64 * 64), out(64 * 64);
  std::vector<int> idx(64 * 64);
  mstage::kernel(
      [](mstage::vector_view<float> in, mstage::vector_view<float> out,
         mstage::vector_view<int> idx) {
        mstage::shared_array<float, 16, 17> tile;
        float local[64];
        auto t = mstage::Thread::get().index;
        auto b = mstage::Block::get().index;
        unsigned x = b.x * 16 + t.x, y = b.y * 16 + t.y;
        for (int i = 0; i < 64; ++i)
          local[i] = in[(y * 64 + x + i) % 4096];
        tile[t.y][t.x] = local[idx[y * 64 + x] & 63];
        mstage::Block::get().synchronize();
        out[y * 64 + x] = tile[t.x][t.y];
      },
      mstage::dim3(4, 4), mstage::dim3(16, 16))(in, out, idx);
}
