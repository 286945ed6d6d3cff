//===- CpuWmma.cpp - Tensor-core tiles computed on the CPU ----------------===//
#include "backends/cpu/CpuWmma.h"

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

} // namespace mstage::rt
