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

// mstage/wgmma.hpp's mma_async for thread Thread (0 .. 127) of a warpgroup:
// its N / 2 elements of D (wgmma's register layout) become
// (Accumulate ? D : 0) + A * B, A and B being 64 x 16 and N x 16 slices of
// 128-byte swizzled K-major tiles read as the tensor cores read them (from
// the slice's address and its byte address bits). False, computing
// nothing, where A or B is not in a tile's first 128 bytes of a 1024-byte
// aligned start (the device's descriptor could not name it).
bool wgmmaThreadMma(float *D, const void *A, const void *B, unsigned N,
                    bool Accumulate, unsigned Thread);

} // namespace mstage::rt

#endif
