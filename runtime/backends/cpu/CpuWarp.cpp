//===- CpuWarp.cpp - Warp collectives computed on the CPU ----------------===//
#include "backends/cpu/CpuWarp.h"

#include <cassert>

namespace mstage::rt {

// The source lane of a shuffle, as PTX's shfl.sync computes it: the width
// is encoded as the segment mask 32 - width, and the clamp is the segment's
// last lane (its first for shfl.up); a source past the clamp is the lane
// itself.
static unsigned shuffleSource(const WarpCall &C, unsigned Lane) {
  unsigned SegMask = unsigned(32 - C.Width) & 31;
  unsigned Clamp = C.Op == WarpOp::ShflUp ? 0 : 31;
  int MaxLane = int((Lane & SegMask) | (Clamp & ~SegMask));
  int MinLane = int(Lane & SegMask);
  int B = C.Arg & 31;
  int J;
  bool InRange;
  switch (C.Op) {
  case WarpOp::ShflUp:
    J = int(Lane) - B;
    InRange = J >= MaxLane;
    break;
  case WarpOp::ShflDown:
    J = int(Lane) + B;
    InRange = J <= MaxLane;
    break;
  case WarpOp::ShflXor:
    J = int(Lane) ^ B;
    InRange = J <= MaxLane;
    break;
  default:
    assert(C.Op == WarpOp::Shfl && "only shuffles have a source lane");
    J = MinLane | (B & ~int(SegMask));
    InRange = J <= MaxLane;
    break;
  }
  return InRange ? unsigned(J) : Lane;
}

void completeWarpCalls(WarpCall *const Lanes[32], unsigned Present) {
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    if (!(Present >> Lane & 1))
      continue;
    WarpCall &C = *Lanes[Lane];
    unsigned Seen = Present & (C.Mask | 1u << Lane);
    unsigned True = 0;
    for (unsigned J = 0; J < 32; ++J)
      if ((Seen >> J & 1) && Lanes[J]->Value != 0)
        True |= 1u << J;
    switch (C.Op) {
    case WarpOp::Sync:
      C.Result = 0;
      break;
    case WarpOp::Ballot:
      C.Result = int(True);
      break;
    case WarpOp::Any:
      C.Result = True != 0;
      break;
    case WarpOp::All:
      C.Result = True == Seen;
      break;
    default: {
      assert(C.Op >= WarpOp::Shfl && "every warp operation is handled");
      unsigned Src = shuffleSource(C, Lane);
      C.Result = Seen >> Src & 1 ? Lanes[Src]->Value : C.Value;
      break;
    }
    }
  }
}

} // namespace mstage::rt
