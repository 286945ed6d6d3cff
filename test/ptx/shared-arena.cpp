// Dynamic shared memory, typed and sized by the launch:
//  - shared_arena hands out a char, a double and a 32-byte aligned array;
//    shared_bytes_for<char, double, Wide>(3, 128, 4) = 1184 sizes it (8 for
//    the chars and their padding, 1024 for the doubles, 24 of worst-case
//    padding and 128 for Wide).
//  - Unfolded, dynamic_shared_size() reads %dynamic_smem_size, and each
//    take() compares what it needs with it.
//  - With the launch's 1184 bytes folded (mstage-ptx --shared), the size is
//    a constant: no %dynamic_smem_size, the doubles sit at byte 8 (aligned
//    as an offset) of a 32-bit shared address (-nvptx-short-ptr), the checks of the 16-byte aligned takes are gone, and
//    only the over-aligned one, which rounds the address up (and -32), is
//    left.
//  - With 1000 bytes folded, the kernel asks for more than the launch
//    gives: the check fails unconditionally, so nothing is stored in shared
//    memory and the kernel reports and traps.
//
// RUN: %mstagexx -O2 -DMSTAGE_BOUNDS_CHECK=1 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 %t | FileCheck %s --check-prefix=HOST
// RUN: %mstage_ptx %t --kernel main::kernel_L45 --grid 4 --block 128 > %t.unfolded.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L45 --grid 4 --block 128 --shared 1184 > %t.folded.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L45 --grid 4 --block 128 --shared 1000 > %t.small.ptx
// RUN: FileCheck %s --check-prefix=UNFOLDED < %t.unfolded.ptx
// RUN: FileCheck %s --check-prefix=FOLDED < %t.folded.ptx
// RUN: FileCheck %s --check-prefix=SMALL < %t.small.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L45 --ir | FileCheck %s --check-prefix=IR
// RUN: %ptxas -arch=sm_90 %t.folded.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

struct alignas(32) Wide {
  float v[8];
};

int main() {
  std::vector<float> out(128 * 4);
  constexpr std::size_t Bytes =
      mstage::shared_bytes_for<char, double, Wide>(3, 128, 4);
  // HOST: shared bytes 1184
  std::printf("shared bytes %zu\n", Bytes);
  mstage::kernel(
      [](auto &out) {
        unsigned t = mstage::Thread::get().index.x;
        mstage::shared_arena arena;
        auto tag = arena.take<char>(3);
        auto d = arena.take<double>(128);
        auto w = arena.take<Wide>(4);
        tag[t % 3] = 1;
        d[t] = t;
        w[t % 4].v[t % 8] = float(t);
        mstage::Block::get().synchronize();
        out.data()[mstage::Thread::get().global.x] =
            float(d[127 - t]) + w[(t + 1) % 4].v[t % 8] +
            float(mstage::dynamic_shared_size());
      },
      4, 128, Bytes)(out);
}

// UNFOLDED: .entry {{_ZN4main[0-9]+kernel_L45E}}(
// UNFOLDED: %dynamic_smem_size
// UNFOLDED: call.uni __assertfail,

// FOLDED: .entry {{_ZN4main[0-9]+kernel_L45E}}(
// FOLDED-NOT: %dynamic_smem_size
// FOLDED: and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -32;
// FOLDED: st.shared.b8
// FOLDED: st.shared.b64 [{{%r[0-9]+}}+8]
// FOLDED: bar.red.popc.u32 {{%r[0-9]+}}, 0, {{%p[0-9]+}};
// FOLDED: 1184
// FOLDED-NOT: %dynamic_smem_size

// SMALL: .entry {{_ZN4main[0-9]+kernel_L45E}}(
// SMALL-NOT: st.shared
// SMALL-NOT: %dynamic_smem_size
// SMALL: call.uni (retval0), vprintf,
// SMALL: call.uni __assertfail,
// SMALL: trap;

// IR: c"%s:%u: %s: mstage: the kernel needs %llu bytes of dynamic shared memory, the launch gave %llu (kernel(f, grid, block, shared_bytes))\0A\00"
// IR: call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
