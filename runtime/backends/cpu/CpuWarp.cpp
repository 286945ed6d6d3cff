//===- CpuWarp.cpp - Warp collectives computed on the CPU ----------------===//
#include "backends/cpu/CpuWarp.h"
#include "backends/cpu/CpuWmma.h"

#include <algorithm>
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

// The reduction Op of the Values of the lanes in Seen.
static int reduceLanes(WarpReduction Op, WarpCall *const Lanes[32],
                       unsigned Seen) {
  bool First = true;
  uint32_t Acc = 0;
  for (unsigned J = 0; J < 32; ++J) {
    if (!(Seen >> J & 1))
      continue;
    uint32_t V = uint32_t(Lanes[J]->Value);
    if (First) {
      Acc = V;
      First = false;
      continue;
    }
    switch (Op) {
    case WarpReduction::Add:
      Acc += V;
      break;
    case WarpReduction::Min:
      Acc = uint32_t(std::min(int32_t(Acc), int32_t(V)));
      break;
    case WarpReduction::Max:
      Acc = uint32_t(std::max(int32_t(Acc), int32_t(V)));
      break;
    case WarpReduction::UMin:
      Acc = std::min(Acc, V);
      break;
    case WarpReduction::UMax:
      Acc = std::max(Acc, V);
      break;
    case WarpReduction::And:
      Acc &= V;
      break;
    case WarpReduction::Or:
      Acc |= V;
      break;
    case WarpReduction::Xor:
      Acc ^= V;
      break;
    }
  }
  return int(Acc);
}

void completeWarpCalls(WarpCall *const Lanes[32], unsigned Present) {
  // One product for the whole warp, from the lowest lane's call.
  if (Present && Lanes[__builtin_ctz(Present)]->Op == WarpOp::Mma)
    return completeMma(Lanes, Present);
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
    case WarpOp::MatchAny:
    case WarpOp::MatchAll: {
      unsigned Same = 0;
      for (unsigned J = 0; J < 32; ++J)
        if ((Seen >> J & 1) && Lanes[J]->Key == C.Key)
          Same |= 1u << J;
      C.Result = int(C.Op == WarpOp::MatchAny ? Same : Same == Seen ? Seen : 0);
      break;
    }
    case WarpOp::Reduce:
      C.Result = reduceLanes(WarpReduction(C.Arg), Lanes, Seen);
      break;
    case WarpOp::Mma:
      assert(false && "the warp's mma is completed as a whole");
      break;
    default: {
      assert(C.Op >= WarpOp::Shfl && C.Op <= WarpOp::ShflXor &&
             "every warp operation is handled");
      unsigned Src = shuffleSource(C, Lane);
      C.Result = Seen >> Src & 1 ? Lanes[Src]->Value : C.Value;
      break;
    }
    }
  }
}

} // namespace mstage::rt
