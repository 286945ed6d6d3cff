// tiled_partition<N> takes N = 1, 2, 4, 8, 16 or 32, and a tile is split
// only into smaller tiles; anything else is a compile error that says so.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -fsyntax-only -DNESTED %s 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<int> v(64);
  mstage::kernel(
      [](auto &v) {
        auto block = mstage::cg::this_thread_block();
#ifndef NESTED
        // CHECK: error: static assertion failed {{.*}}: mstage::cg::tiled_partition<N>: N must be 1, 2, 4, 8, 16 or 32 (a power of 2 that fits in a warp)
        auto t12 = mstage::cg::tiled_partition<12>(block);
        v[0] = int(t12.thread_rank());
        // CHECK: error: static assertion failed {{.*}}: mstage::cg::tiled_partition<N>: N must be 1, 2, 4, 8, 16 or 32 (a power of 2 that fits in a warp)
        auto t64 = mstage::cg::tiled_partition<64>(block);
        v[1] = int(t64.thread_rank());
#else
        auto t8 = mstage::cg::tiled_partition<8>(block);
        // NESTED: error: static assertion failed {{.*}}: mstage::cg::tiled_partition<N>(tile): N must not exceed the size of the tile it partitions
        auto t16 = mstage::cg::tiled_partition<16>(t8);
        v[2] = int(t16.thread_rank());
#endif
      },
      1, 64)(v);
}
