// The reduction of one value per thread to one per block, for any trivially
// copyable type: warp shuffles, then one value per warp through shared
// memory. With an identity every thread holds a value; without one a flag
// says which threads hold one (a block's last tile may leave some empty).
#ifndef MSTAGE_ALGORITHM_DETAIL_BLOCK_REDUCE_HPP
#define MSTAGE_ALGORITHM_DETAIL_BLOCK_REDUCE_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/warp.hpp"
#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"
#include "mstage/shared_array.hpp"

namespace mstage::detail {

// Combines v with the value d lanes up, the tree of lane 0: each step reads
// only lanes below 32, so lane 0 ends with the warp's whole reduction.
template <bool HasIdentity, class _Rp, class _Op>
void combine_down(_Rp &v, bool &have, const _Op &op, unsigned d) {
  _Rp other = shfl_down_any(v, d);
  if constexpr (HasIdentity) {
    v = apply_op(op, v, other);
  } else {
    bool other_has = __mstage_shfl_down_i32(0xffffffffu, have, d, 32) != 0;
    if (other_has) {
      v = have ? apply_op(op, v, other) : other;
      have = true;
    }
  }
}

// The block's reduction of v (of the threads whose have is set), in thread 0
// (and have there: whether any thread had a value). Every thread of the
// block must call it.
template <unsigned Block, bool HasIdentity, class _Rp, class _Op>
_Rp block_reduce(_Rp v, bool &have, const _Op &op) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0,
                "mstage: the algorithms' blocks are powers of 2 from 32");
  unsigned tid = __mstage_tid_x();
  unsigned lane = tid % 32, warp = tid / 32;
  for (unsigned d = 16; d > 0; d /= 2)
    combine_down<HasIdentity>(v, have, op, d);
  if constexpr (Block > 32) {
    constexpr unsigned Warps = Block / 32;
    shared_array<raw_storage<_Rp>, Warps> values;
    shared_array<int, Warps> flags;
    if (lane == 0) {
      values[warp] = to_raw(v);
      if constexpr (!HasIdentity)
        flags[warp] = have;
    }
    block_barrier(source_place());
    if (warp == 0) {
      // Lanes at Warps and up keep their own value: lane 0's tree never
      // reads them.
      if (lane < Warps) {
        v = from_raw(values[lane]);
        if constexpr (!HasIdentity)
          have = flags[lane] != 0;
      }
      for (unsigned d = Warps / 2; d > 0; d /= 2)
        combine_down<HasIdentity>(v, have, op, d);
    }
  }
  return v;
}

} // namespace mstage::detail

#endif
