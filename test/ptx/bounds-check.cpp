// Bounds checks of vector_view and mdspan indexing:
//  - on (MSTAGE_BOUNDS_CHECK=1, which wins over NDEBUG, or -O0 without
//    NDEBUG), each access compares its index with the size
//    (unsigned, so a negative index fails too) and branches, unlikely, to one
//    failure block per kernel: vprintf with the message, then __assertfail
//    and a trap. The embedded IR shows the branch weights and the names of
//    the views; the stage() site after the checks is still folded (the
//    checks are calls until the device module is lowered, so slicing never
//    sees them as control flow): in[...] * 64 is a shift by 6;
//  - off (NDEBUG, or -O1 and above without -fmstage-checks), the same kernel has no branch, no call and no trap;
//  - on the host, the check prints the place, index and size, and aborts.
//
// RUN: rm -rf %t.on %t.debug %t.off %t.opt
// RUN: %mstagexx -O2 -DNDEBUG -DMSTAGE_BOUNDS_CHECK=1 %s -o %t.on.bin
// RUN: %mstagexx -O0 %s -o %t.debug.bin && %mstagexx -O2 %s -o %t.opt.bin
// RUN: %mstagexx -O2 -DNDEBUG %s -o %t.off.bin
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.on %t.on.bin
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.debug %t.debug.bin
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.off %t.off.bin && env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.opt %t.opt.bin
// RUN: cat %t.on/*.ptx | FileCheck %s --check-prefix=ON
// RUN: cat %t.debug/*.ptx | FileCheck %s --check-prefix=ON
// RUN: cat %t.off/*.ptx | FileCheck %s --check-prefix=OFF && cat %t.opt/*.ptx | FileCheck %s --check-prefix=OFF
// RUN: %mstage_ptx %t.on.bin --kernel main::kernel_L42 --ir | FileCheck %s --check-prefix=IR
// RUN: not --crash %t.on.bin host 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: %ptxas -arch=sm_90 %t.on/*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.off/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

int main(int argc, char **argv) {
  if (argc > 1) {
    std::vector<int> h(4);
    mstage::vector_view<int> v(h.data(), h.size());
    // HOST: bounds-check.cpp:[[#@LINE+1]]: main: mstage: index 5 is out of bounds for vector_view of size 4
    return v[argc + 3];
  }
  std::vector<int> in(64, 1), idx(64, 0), out(64), grid(4 * 16);
  mstage::kernel(
      [](const auto &in, const auto &idx, auto &out, auto &grid) {
        unsigned i = mstage::Thread::get().global.x;
        int v = in[idx[i]];
        auto m = mstage::mdspan(grid.data(), 4, 16);
        m(i / 16, idx[i]) = v;
        out[i] = v * int(mstage::stage(in.size()));
      },
      1, 64)(in, idx, out, grid);
}

// ON: .extern .func __assertfail
// ON: .extern .func  (.param .b32 func_retval0) vprintf
// ON: .entry {{_ZN4main[0-9]+kernel_L}}[[#]]E(
// ON: setp.{{(le|gt)}}.u64
// ON: shl.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 6;
// ON: call.uni (retval0), vprintf,
// ON: call.uni __assertfail,
// ON: trap;
// ON-NOT: vprintf
// ON-NOT: __assertfail

// OFF: .entry {{_ZN4main[0-9]+kernel_L}}[[#]]E(
// OFF-NOT: bra
// OFF-NOT: setp
// OFF-NOT: call
// OFF-NOT: trap
// OFF-NOT: __assertfail
// OFF: shl.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 6;
// OFF-NOT: trap

// IR-DAG: c"vector_view\00"
// IR-DAG: c"mdspan extent 1\00"
// IR-DAG: c"%s:%u: %s: mstage: index %lld is out of bounds for %s of size %llu\0A\00"
// IR: icmp ugt i64
// IR-NEXT: br i1 %[[#]], label %[[#]], label %[[#FAIL:]], !prof ![[#W:]]
// IR: [[#FAIL]]:
// IR-NEXT: phi i32
// IR: call i32 @vprintf(ptr nonnull @mstage.check.format,
// IR-NEXT: call void @__assertfail(ptr nonnull @mstage.check.expression,
// IR-NEXT: call void @llvm.trap()
// IR: ![[#W]] = !{!"branch_weights", i32 {{[0-9][0-9][0-9][0-9]+}}, i32 1}
