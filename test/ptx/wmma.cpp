// mstage::wmma in PTX: each function is one wmma instruction of 16 x 16 x
// 16 tiles, named by the fragment's type and layout: half A (row major) and
// B (col major) loads, the float accumulator's load and store, and the
// f32.f32 mma with its layouts; bfloat16 loads and the bf16 mma. The
// fragments stay in registers (no local memory). Loads from a shared_array
// use the shared state space (wmma.load.*.shared), which the JIT gives them
// once the optimized address can only point into shared memory.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*wmma_half*.ptx %t.dump/*wmma_bf16*.ptx %t.dump/*wmma_shared*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*wmma_half*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.dump/*wmma_bf16*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.dump/*wmma_shared*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<half> a(256), b(256);
  std::vector<bfloat16> c(256), d(256);
  std::vector<float> out(256);
  kernel(
      "wmma_half", [](auto &a, auto &b, auto &out) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::load_matrix_sync(acc, &out[0], 16, wmma::mem_row_major);
        wmma::load_matrix_sync(fa, &a[0], 16);
        wmma::load_matrix_sync(fb, &b[0], 16);
        wmma::mma_sync(acc, fa, fb, acc);
        for (int i = 0; i < acc.num_elements; ++i)
          acc.x[i] *= 2.0f;
        wmma::store_matrix_sync(&out[0], acc, 16, wmma::mem_col_major);
      },
      1, 32)(a, b, out);
  kernel(
      "wmma_bf16", [](auto &c, auto &d, auto &out) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, bfloat16, wmma::col_major>
            fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, bfloat16, wmma::row_major>
            fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        wmma::load_matrix_sync(fa, &c[0], 16);
        wmma::load_matrix_sync(fb, &d[0], 16);
        wmma::mma_sync(acc, fa, fb, acc);
        wmma::store_matrix_sync(&out[0], acc, 16, wmma::mem_row_major);
      },
      1, 32)(c, d, out);
  kernel(
      "wmma_shared", [](auto &a, auto &out) {
        shared_array<int4, 32> tile; // 256 halves, 16-byte aligned
        half *t = reinterpret_cast<half *>(tile.data());
        for (unsigned i = warp::lane_id(); i < 256; i += 32)
          t[i] = a[i];
        warp::sync();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        wmma::load_matrix_sync(fa, t, 16);
        wmma::load_matrix_sync(fb, t, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        wmma::store_matrix_sync(&out[0], acc, 16, wmma::mem_row_major);
      },
      1, 32)(a, out);
}

// CHECK-LABEL: .entry
// CHECK-NOT:   .local
// CHECK-DAG:   wmma.load.c.sync.aligned.row.m16n16k16{{(.global)?}}.f32
// CHECK-DAG:   wmma.load.a.sync.aligned.row.m16n16k16{{(.global)?}}.f16
// CHECK-DAG:   wmma.load.b.sync.aligned.col.m16n16k16{{(.global)?}}.f16
// CHECK:       wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK:       {{add|mul}}.rn.f32
// CHECK:       wmma.store.d.sync.aligned.col.m16n16k16{{(.global)?}}.f32
// CHECK-LABEL: .entry
// CHECK-NOT:   .local
// CHECK-DAG:   wmma.load.a.sync.aligned.col.m16n16k16{{(.global)?}}.bf16
// CHECK-DAG:   wmma.load.b.sync.aligned.row.m16n16k16{{(.global)?}}.bf16
// CHECK:       wmma.mma.sync.aligned.col.row.m16n16k16.f32.bf16.bf16.f32
// CHECK:       wmma.store.d.sync.aligned.row.m16n16k16{{(.global)?}}.f32
// CHECK-LABEL: .entry
// CHECK-DAG:   wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
// CHECK-DAG:   wmma.load.b.sync.aligned.col.m16n16k16.shared.f16
// CHECK:       wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK:       wmma.store.d.sync.aligned.row.m16n16k16{{(.global)?}}.f32
