// mstage-ptx --resources reports what ptxas -v says the specialization
// uses, and the theoretical occupancy that follows for the launch:
//  - registers and spills are ptxas's own numbers for the same PTX (the
//    checks capture them from a separate ptxas -v run of --ptx's output,
//    Inputs/ptxas_resources.py);
//  - shared memory is Inputs/TileKernel.h's 16x17 float tile: 1088 bytes;
//  - the dynamically indexed local array lives on the stack (local
//    memory): ptxas's stack frame, at least its 256 bytes;
//  - occupancy on sm_90 (64 warps, 228 KiB of shared memory an SM, 1 KiB
//    reserved a block): 256 threads with 100000 bytes of dynamic shared
//    memory fit 233472 / (1088 + 100000 + 1024) = 2 blocks, 16 of 64 warps:
//    25%, limited by shared memory; with 300000 bytes none fits.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel TileKernel --stage 0=2 --block 16,16 > %t.ptx
// RUN: %python %S/Inputs/ptxas_resources.py %ptxas sm_90 %t.ptx > %t.ptxas
// RUN: %mstage_ptx %t --kernel TileKernel --stage 0=2 --block 16,16 --resources > %t.res
// RUN: cat %t.ptxas %t.res | FileCheck %s
// RUN: %mstage_ptx %t --kernel TileKernel --stage 0=2 --block 16,16 --shared 100000 --resources | FileCheck %s --check-prefix=SHARED
// RUN: %mstage_ptx %t --kernel TileKernel --stage 0=2 --block 16,16 --shared 300000 --resources | FileCheck %s --check-prefix=TOOBIG
// RUN: %mstage_ptx %t --kernel TileKernel --stage 0=2 --block 16,16 --resources --arch sm_86 | FileCheck %s --check-prefix=SM86
// REQUIRES: ptxas

#include "Inputs/TileKernel.h"

#include <vector>

// CHECK: ptxas: registers [[REGS:[0-9]+]] spill stores [[STORES:[0-9]+]] spill loads [[LOADS:[0-9]+]] stack [[STACK:[1-9][0-9][0-9]+]]
// CHECK: {{^_ZN10TileKernelE}} (TileKernel@{{.*}}TileKernel.h:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT: registers [[REGS]], spill stores [[STORES]] B, spill loads [[LOADS]] B, stack (local) [[STACK]] B, shared 1088 B, barriers 1
// CHECK-NEXT: occupancy {{[0-9]+}}% ({{[0-9]+}} blocks of 256 threads per SM on sm_90, limited by

// SHARED: shared 1088 B + 100000 B dynamic
// SHARED: occupancy 25% (2 blocks of 256 threads per SM on sm_90, limited by shared memory)
// TOOBIG: occupancy 0% (0 blocks of 256 threads per SM on sm_90, limited by shared memory)
// SM86: occupancy {{[0-9]+}}% ({{[0-9]+}} blocks of 256 threads per SM on sm_86

int main() {
  std::vector<float> in(64 * 64), out(64 * 64);
  std::vector<int> idx(64 * 64);
  mstage::kernel(TileKernel{2}, mstage::dim3(4, 4), mstage::dim3(16, 16))(
      in, out, idx);
}
