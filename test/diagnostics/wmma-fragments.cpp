// mstage::wmma's fragments are of 16 x 16 x 16 tiles, A and B of half or
// bfloat16 with a layout, the accumulator float without one (its loads take
// a layout_t); anything else is a compile error that says so. So are a
// match of a value that is neither 4 nor 8 bytes, and a pipeline copy of a
// size that cp.async has not.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %mstagexx -fsyntax-only -DUSES %s 2>&1 | FileCheck %s --check-prefix=USES --implicit-check-not=error:
#include <mstage.hpp>

#include <vector>

int main() {
  std::vector<float> v(256);
  std::vector<mstage::half> h(256);
  mstage::kernel(
      [](auto &v, auto &h) {
        namespace wmma = mstage::wmma;
#ifndef USES
        // CHECK: error: static assertion failed {{.*}}: mstage::wmma: the fragments are of 16 x 16 x 16 tiles
        wmma::fragment<wmma::matrix_a, 32, 8, 16, mstage::half, wmma::row_major> a;
        // CHECK: error: static assertion failed {{.*}}: mstage::wmma: matrix_a and matrix_b hold half or bfloat16, the accumulator float
        wmma::fragment<wmma::matrix_b, 16, 16, 16, float, wmma::row_major> b;
        // CHECK: error: static assertion failed {{.*}}: mstage::wmma: matrix_a and matrix_b name their layout (row_major or col_major); the accumulator takes it at load and store
        wmma::fragment<wmma::matrix_a, 16, 16, 16, mstage::half> c;
#else
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        // USES: error: static assertion failed {{.*}}: mstage::wmma: an accumulator's load takes a layout_t
        wmma::load_matrix_sync(acc, &v[0], 16);
        // USES: error: static assertion failed {{.*}}: warp::match_any and match_all compare values of 4 or 8 bytes
        v[1] = float(mstage::warp::match_any(h[0]));
        // USES: error: static assertion failed {{.*}}: mstage::pipeline_memcpy_async copies 4, 8 or 16 bytes
        mstage::pipeline_memcpy_async<2>(&h[0], &h[1]);
#endif
      },
      1, 32)(v, h);
}
