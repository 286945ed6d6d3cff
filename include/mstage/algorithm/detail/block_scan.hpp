// The scan of one value per thread over a block, for the scans and the
// radix sort: a warp scan by shuffles (detail/warp.hpp), then the warps'
// totals through shared memory.
#ifndef MSTAGE_ALGORITHM_DETAIL_BLOCK_SCAN_HPP
#define MSTAGE_ALGORITHM_DETAIL_BLOCK_SCAN_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/warp.hpp"
#include "mstage/builtins.h"

namespace mstage::detail {

// The exclusive scan by op of v over the block's threads (Block of them, a
// multiple of 32), in thread order (op need not be commutative): the
// combination of the threads before this one, which thread 0 has none of
// (has_prefix false, the value meaningless); the whole block's in
// aggregate, in every thread. warpMem holds Block / 32 values; it must not
// be written again before the next barrier.
template <unsigned Block, class _Tp, class _Op>
_Tp block_exclusive_scan(_Tp v, const _Op &op, raw_storage<_Tp> *warpMem,
                         _Tp &aggregate, bool &has_prefix) {
  static_assert(Block % 32 == 0, "mstage: a block scan takes whole warps");
  constexpr unsigned Warps = Block / 32;
  const unsigned tid = __mstage_tid_x(), lane = tid % 32, warp = tid / 32;
  _Tp laneExclusive; // valid for lane > 0
  _Tp warpTotal = warp_inclusive_scan(v, op, laneExclusive);
  if (lane == 31)
    warpMem[warp] = to_raw(warpTotal);
  __mstage_barrier();
  // The warps before this one, and all of them.
  _Tp warpPrefix = from_raw(warpMem[0]);
  aggregate = warpPrefix;
  for (unsigned w = 1; w < Warps; ++w) {
    if (w == warp)
      warpPrefix = aggregate;
    aggregate = apply_op(op, aggregate, from_raw(warpMem[w]));
  }
  has_prefix = tid != 0;
  if (warp == 0)
    return laneExclusive;
  return lane == 0 ? warpPrefix : apply_op(op, warpPrefix, laneExclusive);
}

// The exclusive sum of v over the block's threads (0 in thread 0), and the
// block's total in total.
template <unsigned Block, class _Tp>
_Tp block_exclusive_sum(_Tp v, raw_storage<_Tp> *warpMem, _Tp &total) {
  bool has_prefix;
  _Tp prefix = block_exclusive_scan<Block>(
      v, [](_Tp a, _Tp b) { return _Tp(a + b); }, warpMem, total, has_prefix);
  return has_prefix ? prefix : _Tp(0);
}

} // namespace mstage::detail

#endif
