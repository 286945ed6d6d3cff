//===- WgmmaLayoutTest.cpp - Tests of mstage::wgmma's layouts -------------===//
//
// The swizzled tile offsets against the hardware's rule written out again
// (the 128-byte swizzle XORs address bits 4-6 with bits 7-9), and the
// accumulator's element positions against what a product needs: every
// element of the 64 x N product exactly once per warpgroup, each thread's
// pairs side by side (the GEMM stores them as float2).
//
//===----------------------------------------------------------------------===//
#include "mstage/wgmma_layout.hpp"

#include "gtest/gtest.h"

#include <vector>

namespace wgmma = mstage::wgmma;

namespace {

TEST(WgmmaLayoutTest, SwizzledOffsetIsTheHardwareRule) {
  for (unsigned Row = 0; Row < 64; ++Row)
    for (unsigned K = 0; K < wgmma::tile_k; ++K) {
      unsigned Byte = Row * 128 + K * 2;
      unsigned Swizzled = Byte ^ (((Byte >> 7) & 7) << 4);
      EXPECT_EQ(wgmma::swizzled_offset(Row, K), Swizzled / 2)
          << "row " << Row << ", k " << K;
    }
}

TEST(WgmmaLayoutTest, SwizzledOffsetIsAPermutationOfEachRow) {
  for (unsigned Row = 0; Row < 16; ++Row) {
    std::vector<bool> Seen(wgmma::tile_k, false);
    for (unsigned K = 0; K < wgmma::tile_k; ++K) {
      unsigned Offset = wgmma::swizzled_offset(Row, K);
      ASSERT_GE(Offset, Row * wgmma::tile_k);
      ASSERT_LT(Offset, (Row + 1) * wgmma::tile_k);
      EXPECT_FALSE(Seen[Offset % wgmma::tile_k])
          << "row " << Row << ", k " << K;
      Seen[Offset % wgmma::tile_k] = true;
      // A 16-byte chunk (8 halves) stays whole, so cp.async can copy it.
      if (K % 8)
        EXPECT_EQ(Offset, wgmma::swizzled_offset(Row, K - 1) + 1);
    }
  }
}

template <unsigned N> void expectEveryElementOnce() {
  using Acc = wgmma::accumulator<N>;
  std::vector<int> Count(64 * N, 0);
  for (unsigned T = 0; T < 128; ++T)
    for (unsigned I = 0; I < Acc::num_elements; ++I) {
      unsigned Row = Acc::row(T, I), Col = Acc::col(T, I);
      ASSERT_LT(Row, 64u);
      ASSERT_LT(Col, N);
      ++Count[Row * N + Col];
      if (I % 2)
        EXPECT_EQ(Col, Acc::col(T, I - 1) + 1);
    }
  for (unsigned E = 0; E < 64 * N; ++E)
    EXPECT_EQ(Count[E], 1) << "N " << N << ", element " << E;
}

TEST(WgmmaLayoutTest, AccumulatorHoldsEveryElementOnce) {
  expectEveryElementOnce<8>();
  expectEveryElementOnce<64>();
  expectEveryElementOnce<256>();
}

TEST(WgmmaLayoutTest, AccumulatorStartsZeroed) {
  wgmma::accumulator<16> Acc;
  for (float X : Acc.x)
    EXPECT_EQ(X, 0.0f);
}

} // namespace
