// MSTAGE_STATS's second table: per specialization, the registers, spills,
// static shared and local memory its code uses and the theoretical
// occupancy for its launch's block.
//  - PTX-only mode: from ptxas -v, which the JIT runs: the numbers are
//    ptxas's own for the same PTX (the checks capture them from a separate
//    ptxas -v run of the dumped PTX, Inputs/ptxas_resources.py); shared
//    memory is Inputs/TileKernel.h's 16x17 float tile, 1088 bytes; the
//    dynamically indexed local array is on the stack.
//  - GPU path (the fake driver of test/cuda): from cuFuncGetAttribute and
//    cuOccupancyMaxActiveBlocksPerMultiprocessor (the fake's 2 blocks of 8
//    warps on 64: 25%); the driver's JIT made the code, so the spills are
//    unknown; a query that fails leaves "-".
//  - Two staged values are two rows; the CPU back end compiles nothing.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: rm -rf %t.dump && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_STATS=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 1 2> %t.ptxonly
// RUN: %python %S/Inputs/ptxas_resources.py %ptxas sm_90 %t.dump/*.ptx > %t.ptxas
// RUN: cat %t.ptxas %t.ptxonly | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_STATS=1 %t 2 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_STATS=1 MSTAGE_PTXAS=off %t 1 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_PTXAS=off MSTAGE_STATS=1 FAKECUDA_FUNC_ATTRIBUTES=4=40,1=1088,3=256 %t 1 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_PTXAS=off MSTAGE_STATS=1 FAKECUDA_FAIL=cuFuncGetAttribute=1,cuOccupancyMaxActiveBlocksPerMultiprocessor=1 %t 1 2>&1 | FileCheck %s --check-prefix=FAILED
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STATS=1 %t 1 2>&1 | FileCheck %s --check-prefix=CPU
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include "Inputs/TileKernel.h"

#include <cstdlib>
#include <vector>

// CHECK: ptxas: registers [[REGS:[0-9]+]] spill stores [[STORES:[0-9]+]] spill loads [[LOADS:[0-9]+]] stack [[STACK:[1-9][0-9][0-9]+]]
// CHECK: mstage: stats: registers spill st spill ld shared local block blocks/SM occup.  kernel key
// CHECK-NEXT: mstage: stats: [[REGS]] [[STORES]] [[LOADS]] 1088 [[STACK]] 256 {{[0-9]+}} {{[0-9]+}}%  TileKernel@{{.*}}TileKernel.h:{{[0-9]+}}:{{[0-9]+}} key {{[0-9a-f]+$}}
// CHECK-NOT: mstage: stats:

// TWO: mstage: stats: registers
// TWO-NEXT: mstage: stats: {{.*}} 1088 {{.*}}TileKernel.h:{{[0-9]+}}:{{[0-9]+}} key [[K1:[0-9a-f]+$]]
// TWO-NEXT: mstage: stats: {{.*}} 1088 {{.*}}TileKernel.h:{{[0-9]+}}:{{[0-9]+}} key
// TWO-NOT: [[K1]]

// NOPTXAS: mstage: stats: launches
// NOPTXAS-NOT: registers

// GPU: mstage: stats: registers
// GPU-NEXT: mstage: stats: 40 - - 1088 256 256 2 25%  TileKernel@{{.*}}TileKernel.h

// FAILED: mstage: stats: registers
// FAILED-NEXT: mstage: stats: - - - - - 256 - -  TileKernel@{{.*}}TileKernel.h

// CPU: mstage: stats: launches
// CPU-NOT: registers

int main(int argc, char **argv) {
  int Launches = argc > 1 ? std::atoi(argv[1]) : 1;
  std::vector<float> in(64 * 64), out(64 * 64);
  std::vector<int> idx(64 * 64);
  for (int Scale = 1; Scale <= Launches; ++Scale)
    mstage::kernel(TileKernel{Scale}, mstage::dim3(4, 4),
                   mstage::dim3(16, 16))(in, out, idx);
}
