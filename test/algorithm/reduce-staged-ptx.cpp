// One mstage::sum call becomes kernels specialized for it (issue 18, item 7):
// compiled for sm_90 in PTX-only mode, the first pass over 2^20 + 172 ints
// has the block size (.reqntid 256) and the grid folded (no %ntid, no
// %nctaid), the element count folded into its tile arithmetic (256 full
// tiles of 4096 and 172 left: the last tile's test against 172), 16-byte
// vector loads that are non-coherent (the view is only read), 32-bit index
// arithmetic and no loop over tiles (257 blocks, one tile each); in the
// same launch, each block's thread 0 takes a ticket (an acq_rel atomic add,
// fenced at .gpu scope), and the block that draws 256, the last, reduces the
// 257 partials. ptxas accepts it.
//
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: rm -rf %t.dump && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 1048748
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: bash -c "for f in %t.dump/*.ptx; do %ptxas -arch=sm_90 \$f -o /dev/null || exit 1; done"
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
// CHECK-DAG: .reqntid 256, 1, 1
// CHECK-DAG: setp.gt.u32 {{.*}}, 255;
// CHECK-DAG: ld.global.nc.v4.b32
// CHECK-DAG: setp.ne.b32 {{.*}}, 256;
// CHECK-DAG: setp.gt.u32 {{.*}}, 171;
// CHECK-DAG: ld.global.nc.b32 {{.*}}+4194304];
// CHECK-DAG: shfl.sync.down.b32 {{.*}}, 16, 31, -1;
// CHECK-DAG: fence.acq_rel.gpu;
// CHECK-DAG: atom.global.add.u32 {{.*}}, 1;
// CHECK-DAG: setp.eq.b32 {{.*}}, 256;
// CHECK-NOT: %nctaid
// CHECK-NOT: %ntid
