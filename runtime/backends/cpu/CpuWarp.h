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
  ShflXor,
  MatchAny, // the lanes whose Key equals the caller's
  MatchAll, // the mask's lanes when all their Keys are equal, else 0
  Reduce,   // the reduction of the lanes' Values, WarpReduction(Arg)
  Mma       // a tensor-core tile product (CpuWmma.h), bfloat16 if Arg
};

// The operations of CUDA's __reduce_*_sync.
enum class WarpReduction : uint8_t { Add, Min, Max, UMin, UMax, And, Or, Xor };

struct WarpCall {
  WarpOp Op = WarpOp::Sync;
  unsigned Mask = 0;
  int Value = 0; // the shuffled value, or the predicate
  int Arg = 0;   // source lane, delta or lane mask
  int Width = 32;
  uint64_t Key = 0; // a match's value
  // An mma's fragments, in the order of __mstage_wmma_mma: d, a, b, c.
  void *Fragments[4] = {};
  int Result = 0;
};

// Computes the Result of every lane in Present (a bit per lane), whose calls
// are Lanes[lane]. A lane reads only lanes that are in Present and in its own
// mask; a shuffle from any other lane (undefined in CUDA) gives the lane's
// own value.
void completeWarpCalls(WarpCall *const Lanes[32], unsigned Present);

} // namespace mstage::rt

#endif
