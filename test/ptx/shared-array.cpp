// mstage::shared_array declarations become `.shared` arrays of their size
// and alignment, one per declaration:
//  - a 16x17 float tile (1088 bytes, .align 4) and a 2x3x4 double cube (192
//    bytes, .align 8) are two arrays with their own names;
//  - a declaration in a device function that the kernel calls twice is one
//    array (as CUDA's __shared__), not one per call: one 64-byte array;
//  - the kernel needs no shared_bytes: no %dynamic_smem_size, and the PTX
//    compiles with ptxas (also when built at -O0, where the constructor is
//    inlined by mstage).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L36 --grid 4,4 --block 16,16 > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: %mstagexx -O0 %s -o %t.O0
// RUN: %mstage_ptx %t.O0 --kernel main::kernel_L36 --grid 4,4 --block 16,16 > %t.O0.ptx
// RUN: FileCheck %s --check-prefix=O0 < %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>
#include <vector>

// One array, however often it is called.
static float rotate(unsigned t, float v) {
  mstage::shared_array<float, 16> ring;
  ring[t % 16] = v;
  mstage::Block::get().synchronize();
  return ring[(t + 1) % 16];
}

int main() {
  std::vector<float> in(64 * 64), out(64 * 64);
  std::vector<double> d(64);
  mstage::kernel(
      [](mstage::vector_view<float> in, mstage::vector_view<float> out,
         mstage::vector_view<double> d) {
        mstage::shared_array<float, 16, 17> tile;
        mstage::shared_array<double, 2, 3, 4> cube;
        auto t = mstage::Thread::get().index;
        auto b = mstage::Block::get().index;
        unsigned x = b.x * 16 + t.x, y = b.y * 16 + t.y;
        tile[t.y][t.x] = in[y * 64 + x];
        cube(t.x % 2, t.y % 3, t.x % 4) = in[x];
        mstage::Block::get().synchronize();
        out[(b.x * 16 + t.y) * 64 + b.y * 16 + t.x] =
            rotate(t.x, tile[t.x][t.y]) + rotate(t.y, 1.0f);
        d[t.x % 64] = cube[t.y % 2][t.x % 3][t.y % 4];
      },
      mstage::dim3(4, 4), mstage::dim3(16, 16))(in, out, d);
}

// CHECK: .entry {{_ZN4main[0-9]+kernel_L36E}}(
// CHECK-DAG: .shared .align 4 .b8 [[TILE:__mstage_shared_L38_C[0-9]+]][1088];
// CHECK-DAG: .shared .align 8 .b8 [[CUBE:__mstage_shared_L39_C[0-9]+]][192];
// CHECK-DAG: .shared .align 4 .b8 [[RING:__mstage_shared_L26_C[0-9]+]][64];
// CHECK-NOT: .shared .align
// CHECK-NOT: %dynamic_smem_size
// CHECK-DAG: st.shared.b32
// CHECK-DAG: st.shared.b64

// O0-DAG: .shared .align 4 .b8 __mstage_shared_L38_C{{[0-9]+}}[1088];
// O0-DAG: .shared .align 8 .b8 __mstage_shared_L39_C{{[0-9]+}}[192];
// O0-DAG: .shared .align 4 .b8 __mstage_shared_L26_C{{[0-9]+}}[64];
