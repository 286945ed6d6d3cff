// The paper's Listing 2 (examples/reduce.cpp) compiled to PTX for sm_90: the
// barrier and the dynamic shared memory are there, the block size is folded
// (.reqntid, no %ntid), so the tree loop `for (s = block.size.x / 2; ...)` is
// unrolled into its 8 levels (9 barriers, no back edge), and ptxas accepts
// the result.
//
// A release build (NDEBUG), so no bounds checks.
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %src_root/examples/reduce.cpp -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

// OUT: mstage: no GPU ({{.*}}); compiling kernels for sm_90 to PTX only, nothing is executed
// OUT-NEXT: reduce: {{[0-9]+}} ints compiled to PTX only, result not checked

// CHECK: .extern .shared .align 16 .b8 __mstage_dynamic_shared[];
// CHECK: .visible .entry {{_ZN6reduce[0-9]+kernel_L}}[[#]]E(
// CHECK: .reqntid 256, 1, 1
// CHECK-NOT: %ntid
// CHECK: st.shared.b32
// CHECK-COUNT-9: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK-NOT: bra.uni
// CHECK: st.global.b32
