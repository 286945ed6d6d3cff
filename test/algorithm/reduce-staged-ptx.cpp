// One mstage::sum call becomes kernels specialized for it (issue 18, item 7):
// compiled for sm_90 in PTX-only mode, the first pass over 2^20 + 172 ints
// has the block size (.reqntid 512) and the grid folded (no %ntid, no
// %nctaid), the element count folded into its tile arithmetic (128 full
// tiles of 8192 and 172 left: the last tile's test against 172), 16-byte
// vector loads that are non-coherent (the view is only read) and stream
// (no L1, 256 bytes to L2: sm_89 and later; sm_80 has the plain load),
// 32-bit index arithmetic and no loop over tiles (129 blocks, one tile
// each); in the same launch, each block's thread 0 takes a ticket (an
// acq_rel atomic add, fenced at .gpu scope), and the block that draws 128,
// the last, reduces the 129 partials. At 2^24 + 172 ints the 528 blocks (an
// H100's 132 multiprocessors x 4, PTX-only mode's stand-in) walk the 2048
// full tiles with the grid's constant stride, with a barrier after each
// tile. ptxas accepts each.
//
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: rm -rf %t.dump && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 1048748
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: bash -c "for f in %t.dump/*.ptx; do %ptxas -arch=sm_90 \$f -o /dev/null || exit 1; done"
// RUN: rm -rf %t.dump80 && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_80 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump80 %t 1048748
// RUN: cat %t.dump80/*.ptx | FileCheck %s --check-prefix=SM80
// RUN: bash -c "for f in %t.dump80/*.ptx; do %ptxas -arch=sm_80 \$f -o /dev/null || exit 1; done"
// RUN: rm -rf %t.dumpd && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dumpl %t 16777388
// RUN: cat %t.dumpl/*.ptx | FileCheck %s --check-prefix=LOOP
// RUN: bash -c "for f in %t.dumpl/*.ptx; do %ptxas -arch=sm_90 \$f -o /dev/null || exit 1; done"
// REQUIRES: ptxas
// UNSUPPORTED: gpu
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1048748;
  mstage::device_vector<int> in(n), out(1);
  mstage::sum(in, out);
  std::printf("sum of %zu ints compiled\n", n);
}

// One kernel; its parts in any order.
// CHECK-DAG: .reqntid 512, 1, 1
// CHECK-DAG: setp.gt.u32 {{.*}}, 127;
// CHECK-DAG: ld.global.nc.L1::no_allocate.L2::256B.v4.u32
// CHECK-DAG: setp.ne.b32 {{.*}}, 128;
// CHECK-DAG: setp.gt.u32 {{.*}}, 171;
// CHECK-DAG: ld.global.nc.b32 {{.*}}+4194304];
// CHECK-DAG: shfl.sync.down.b32 {{.*}}, 16, 31, -1;
// CHECK-DAG: fence.acq_rel.gpu;
// CHECK-DAG: atom.global.add.u32 {{.*}}, 1;
// CHECK-DAG: setp.eq.b32 {{.*}}, 128;
// CHECK-NOT: %nctaid
// CHECK-NOT: %ntid

// SM80: .version 7.0
// SM80-NOT: L2::256B
// SM80: ld.global.nc.v4.b32
// SM80-NOT: L2::256B

// The loop: a tile's loads, the barrier, the next tile at the constant
// stride of 528 blocks (528 x 8192 x 4 = 17301504 bytes), and the end at
// 2048 full tiles (the test is on the tile before: below 2048 - 528).
// LOOP: .reqntid 512, 1, 1
// LOOP: [[LOOP:\$L__BB0_[0-9]+]]:
// LOOP: ld.global.nc.L1::no_allocate.L2::256B.v4.u32
// LOOP: bar.sync 0;
// LOOP: add.s32 {{.*}}, 528;
// LOOP: add.s64 {{.*}}, 17301504;
// LOOP: setp.lt.u32 {{.*}}, 1520;
// LOOP: bra {{.*}}[[LOOP]];
// LOOP-NOT: %nctaid
