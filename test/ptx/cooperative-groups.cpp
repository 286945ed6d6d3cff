// Cooperative groups lower to the warp's *.sync instructions, restricted to
// the tile: a tile of N threads has the lane mask ((1 << N) - 1) shifted to
// its first lane (laneid & ~(N - 1)), and its shuffles carry CUDA's width
// encoding, ((32 - N) << 8) | clamp, with clamp 31 for down, idx and bfly
// and 0 for up: 6175 for 8 threads, 7168 and 7199 for 4, 4127 for 16, 31 for
// 32 (whose mask is the whole warp). The ballot keeps the tile's bits and
// shifts them down to its first lane. thread_rank() of a one-dimensional block is tid.x, and
// block.sync() is the block barrier.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> out(64 * 8);
  kernel(
      [](auto &out) {
        auto block = cg::this_thread_block();
        unsigned r = block.thread_rank();
        auto t8 = cg::tiled_partition<8>(block);
        int v = int(r);
        for (unsigned d = t8.size() / 2; d > 0; d /= 2)
          v += t8.shfl_down(v, d);
        out[r] = v;
        auto t4 = cg::tiled_partition<4>(t8);
        out[64 + r] = t4.shfl_up(int(r), 1);
        out[128 + r] = t8.shfl(int(r), 3);
        out[192 + r] = t4.shfl_xor(int(r), 1);
        out[256 + r] = int(t8.ballot(r % 3 == 0));
        out[320 + r] = t8.any(r == 5) + 2 * t8.all(r < 60);
        t8.sync();
        block.sync();
        auto t32 = cg::tiled_partition<32>(block);
        out[384 + r] = t32.shfl_down(int(r), 16);
        auto t16 = cg::tiled_partition<16>(block);
        out[448 + r] = t16.shfl_down(int(r), 8);
      },
      1, 64)(out);
}

// CHECK:      mov.u32 [[TID:%r[0-9]+]], %tid.x;
// CHECK:      mov.u32 [[LANE:%r[0-9]+]], %laneid;
// CHECK-NEXT: and.b32 [[FIRST8:%r[0-9]+]], [[LANE]], 24;
// CHECK-NEXT: mov.b32 [[ONES8:%r[0-9]+]], 255;
// CHECK-NEXT: shl.b32 [[MASK8:%r[0-9]+]], [[ONES8]], [[FIRST8]];
// CHECK-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, [[TID]], 4, 6175, [[MASK8]];
// CHECK:      shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 6175, [[MASK8]];
// CHECK:      shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 6175, [[MASK8]];
// CHECK:      and.b32 [[FIRST4:%r[0-9]+]], [[LANE]], 28;
// CHECK-NEXT: mov.b32 [[ONES4:%r[0-9]+]], 15;
// CHECK-NEXT: shl.b32 [[MASK4:%r[0-9]+]], [[ONES4]], [[FIRST4]];
// CHECK-NEXT: shfl.sync.up.b32 {{%r[0-9]+}}, [[TID]], 1, 7168, [[MASK4]];
// CHECK:      shfl.sync.idx.b32 {{%r[0-9]+}}, [[TID]], 3, 6175, [[MASK8]];
// CHECK:      shfl.sync.bfly.b32 {{%r[0-9]+}}, [[TID]], 1, 7199, [[MASK4]];
// CHECK:      vote.sync.ballot.b32 [[BALLOT:%r[0-9]+]], {{%p[0-9]+}}, [[MASK8]];
// CHECK-NEXT: shr.u32 [[SHIFTED:%r[0-9]+]], [[BALLOT]], [[FIRST8]];
// CHECK-NEXT: and.b32 {{%r[0-9]+}}, [[SHIFTED]], 255;
// CHECK:      vote.sync.any.pred {{.*}}, [[MASK8]];
// CHECK:      vote.sync.all.pred {{.*}}, [[MASK8]];
// CHECK:      bar.warp.sync [[MASK8]];
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, [[TID]], 16, 31, -1;
// CHECK:      and.b32 [[FIRST16:%r[0-9]+]], [[LANE]], 16;
// CHECK-NEXT: mov.b32 [[ONES16:%r[0-9]+]], 65535;
// CHECK-NEXT: shl.b32 [[MASK16:%r[0-9]+]], [[ONES16]], [[FIRST16]];
// CHECK-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, [[TID]], 8, 4127, [[MASK16]];
