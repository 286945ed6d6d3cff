// Warp reductions, matches and the grid barrier in PTX. On sm_80 and later
// warp::reduce_* and cg::reduce of an int with cg::plus/less/greater are one
// redux.sync each (min/max signed or unsigned as the operand, and/or/xor on
// b32), with the tile's lane mask for a tile; before sm_80 (sm_75) the same
// source becomes shuffles from each lane (shfl.sync.idx), and no redux.
// match_any is match.any.sync (b32 or b64 by the key's size), match_all
// match.all.sync. this_grid().sync() adds to the module's zeroed
// __mstage_grid_barrier_word between two block barriers, with fences at
// device scope around it and a nanosleep in its wait.
//
// RUN: rm -rf %t.dump %t.dump75 && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*reductions*.ptx %t.dump/*grid_barrier*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*reductions*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.dump/*grid_barrier*.ptx -o /dev/null
// RUN: env MSTAGE_ARCH=sm_75 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump75 %t
// RUN: cat %t.dump75/*reductions*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=SM75
// RUN: %ptxas -arch=sm_75 %t.dump75/*reductions*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> out(64 * 16);
  std::vector<unsigned> u(64 * 4);
  kernel(
      "reductions", [](auto &out, auto &u) {
        unsigned r = Thread::get().global.x;
        int x = out[r];
        unsigned y = u[r];
        out[r] = warp::reduce_add(x);
        out[64 + r] = warp::reduce_min(x);
        out[128 + r] = warp::reduce_max(x);
        u[r] = warp::reduce_min(y) + warp::reduce_max(y, 0xffffu);
        u[64 + r] = warp::reduce_and(y) ^ warp::reduce_or(y) ^
                    warp::reduce_xor(y);
        out[192 + r] = int(warp::match_any(x));
        out[256 + r] = int(warp::match_any((long long)x << 33));
        out[320 + r] = int(warp::match_all(x));
        auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
        out[384 + r] = cg::reduce(t8, x, cg::plus<int>());
      },
      1, 64)(out, u);
  kernel(
      "grid_barrier", [](auto &out) {
        unsigned r = Thread::get().global.x;
        out[r] = 1;
        cg::this_grid().sync();
        out[r] += out[(r + 64) % out.size()];
      },
      4, 64)(out);
}

// CHECK-LABEL: .entry
// CHECK:     redux.sync.add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FULL:%r[0-9]+|-1]];
// CHECK:     redux.sync.min.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FULL]];
// CHECK:     redux.sync.max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FULL]];
// CHECK-DAG: redux.sync.min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FULL]];
// CHECK-DAG: redux.sync.max.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+|65535}};
// CHECK-DAG: redux.sync.and.b32
// CHECK-DAG: redux.sync.or.b32
// CHECK-DAG: redux.sync.xor.b32
// CHECK:     match.any.sync.b32
// CHECK:     match.any.sync.b64
// CHECK:     match.all.sync.b32
// The tile of 8's mask: 255 shifted to the tile's first lane.
// CHECK:     mov.b32 [[LOW:%r[0-9]+]], 255;
// CHECK:     shl.b32 [[TILE:%r[0-9]+]], [[LOW]],
// CHECK:     redux.sync.add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[TILE]];
// CHECK-NOT: shfl.sync
// CHECK:     ret;

// CHECK:     .global .align 4 .u32 __mstage_grid_barrier_word;
// CHECK-LABEL: .entry
// CHECK:     bar.sync 0;
// CHECK:     fence.sc.gpu;
// CHECK:     atom.global.add.u32 {{.*}}[__mstage_grid_barrier_word]
// CHECK:     nanosleep.u32
// CHECK:     fence.sc.gpu;
// CHECK:     bar.sync 0;

// SM75-NOT:  redux.sync
// SM75:      shfl.sync.idx.b32
// SM75-NOT:  redux.sync
// SM75:      match.any.sync.b32
// SM75-NOT:  redux.sync
