//===- CpuWarp.h - Warp collectives computed on the CPU ------------------===//
//
// A warp operation on the CPU: each lane deposits its call, and once every
// lane of the mask has arrived (or exited), completeWarpCalls computes each
// lane's result from all the deposited values, with the semantics of PTX's
// shfl.sync, vote.sync and bar.warp.sync.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUWARP_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUWARP_H

#include <cstdint>

namespace mstage::rt {

enum class WarpOp : uint8_t {
  Sync,
  Ballot,
  Any,
  All,
  Shfl,
  ShflUp,
  ShflDown,
  ShflXor
};

struct WarpCall {
  WarpOp Op = WarpOp::Sync;
  unsigned Mask = 0;
  int Value = 0; // the shuffled value, or the predicate
  int Arg = 0;   // source lane, delta or lane mask
  int Width = 32;
  int Result = 0;
};

// Computes the Result of every lane in Present (a bit per lane), whose calls
// are Lanes[lane]. A lane reads only lanes that are in Present and in its own
// mask; a shuffle from any other lane (undefined in CUDA) gives the lane's
// own value.
void completeWarpCalls(WarpCall *const Lanes[32], unsigned Present);

} // namespace mstage::rt

#endif
