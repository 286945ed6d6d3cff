//===- CpuWmma.h - Tensor-core tiles computed on the CPU ------------------===//
//
// mstage/wmma.hpp on the CPU back end: a lane's fragment holds 8 of the 16 x
// 16 tile's elements, lane l elements 8l .. 8l + 7 in row order (the GPU's
// order is the hardware's, which CUDA leaves undefined too), so a load and a
// store are each lane's own, and an mma gathers the warp's fragments.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUWMMA_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUWMMA_H

#include "backends/cpu/CpuWarp.h"

namespace mstage::rt {

// The elements of a tile a lane holds, and the tile element (Row, Col) of
// the lane's element J.
inline constexpr unsigned WmmaLaneElements = 8;
inline void wmmaElement(unsigned Lane, unsigned J, unsigned &Row,
                        unsigned &Col) {
  unsigned E = Lane * WmmaLaneElements + J;
  Row = E / 16;
  Col = E % 16;
}

// D = A * B + C for the warp of Lanes (WarpOp::Mma calls): the products in
// float, as the tensor cores form them (exactly), summed in float. Every
// lane's inputs are read before any D is written, so D may be C. A lane not
// in Present (exited) counts as zeros and gets nothing.
void completeMma(WarpCall *const Lanes[32], unsigned Present);

} // namespace mstage::rt

#endif
