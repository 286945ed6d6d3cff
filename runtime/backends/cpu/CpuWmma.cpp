//===- CpuWmma.cpp - Tensor-core tiles computed on the CPU ----------------===//
#include "backends/cpu/CpuWmma.h"
#include "mstage/wgmma_layout.hpp"

#include <cstdint>
#include <cstring>

namespace mstage::rt {

// IEEE binary16 to float, subnormals, infinities and NaNs included.
static float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16, Exp = (H >> 10) & 0x1f,
           Man = H & 0x3ff, Bits;
  if (Exp == 0x1f)
    Bits = Sign | 0x7f800000 | Man << 13;
  else if (Exp != 0)
    Bits = Sign | (Exp + 112) << 23 | Man << 13;
  else if (Man == 0)
    Bits = Sign;
  else { // subnormal: normalize
    Exp = 113;
    while (!(Man & 0x400)) {
      Man <<= 1;
      --Exp;
    }
    Bits = Sign | Exp << 23 | (Man & 0x3ff) << 13;
  }
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

static float bf16ToFloat(uint16_t H) {
  uint32_t Bits = uint32_t(H) << 16;
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

void completeMma(WarpCall *const Lanes[32], unsigned Present) {
  float A[16][16] = {}, B[16][16] = {}, C[16][16] = {};
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    if (!(Present >> Lane & 1))
      continue;
    const WarpCall &Call = *Lanes[Lane];
    auto *FA = static_cast<const uint16_t *>(Call.Fragments[1]);
    auto *FB = static_cast<const uint16_t *>(Call.Fragments[2]);
    auto *FC = static_cast<const float *>(Call.Fragments[3]);
    for (unsigned J = 0; J < WmmaLaneElements; ++J) {
      unsigned Row, Col;
      wmmaElement(Lane, J, Row, Col);
      A[Row][Col] = Call.Arg ? bf16ToFloat(FA[J]) : halfToFloat(FA[J]);
      B[Row][Col] = Call.Arg ? bf16ToFloat(FB[J]) : halfToFloat(FB[J]);
      C[Row][Col] = FC[J];
    }
  }
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    if (!(Present >> Lane & 1))
      continue;
    auto *FD = static_cast<float *>(Lanes[Lane]->Fragments[0]);
    for (unsigned J = 0; J < WmmaLaneElements; ++J) {
      unsigned Row, Col;
      wmmaElement(Lane, J, Row, Col);
      float Sum = C[Row][Col];
      for (unsigned K = 0; K < 16; ++K)
        Sum += A[Row][K] * B[K][Col];
      FD[J] = Sum;
    }
    Lanes[Lane]->Result = 0;
  }
}

// Element (Row, K) of the swizzled slice at Slice: the 128-byte swizzle
// moves the 16-byte chunk (address bits 4-6) by the row in its group of 8
// (address bits 7-9), which a 1024-byte aligned tile start makes the
// row's index.
static float swizzledElement(uintptr_t Slice, unsigned Row, unsigned K) {
  uintptr_t Address = Slice + (Row / 8) * 1024 + (Row % 8) * 128 + K * 2;
  Address ^= ((Address >> 7) & 7) << 4;
  uint16_t H;
  std::memcpy(&H, reinterpret_cast<const void *>(Address), 2);
  return halfToFloat(H);
}

bool wgmmaThreadMma(float *D, const void *A, const void *B, unsigned N,
                    bool Accumulate, unsigned Thread) {
  auto SliceStart = [](const void *P) {
    uintptr_t Address = reinterpret_cast<uintptr_t>(P);
    return Address % wgmma::tile_alignment < 128 && Address % 32 == 0;
  };
  if (!SliceStart(A) || !SliceStart(B))
    return false;
  uintptr_t SA = reinterpret_cast<uintptr_t>(A),
            SB = reinterpret_cast<uintptr_t>(B);
  for (unsigned I = 0; I < N / 2; ++I) {
    unsigned Row = wgmma::accumulator_row(Thread, I),
             Col = wgmma::accumulator_col(Thread, I);
    float Sum = Accumulate ? D[I] : 0.0f;
    for (unsigned K = 0; K < wgmma::mma_k; ++K)
      Sum += swizzledElement(SA, Row, K) * swizzledElement(SB, Col, K);
    D[I] = Sum;
  }
  return true;
}

} // namespace mstage::rt
