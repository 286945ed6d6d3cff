// Scans within a warp and a block, for the scans and the radix sort: warp
// shuffles (5 steps for 32 lanes) and one shared array of warp totals.
#ifndef MSTAGE_ALGORITHM_DETAIL_BLOCK_SCAN_HPP
#define MSTAGE_ALGORITHM_DETAIL_BLOCK_SCAN_HPP

#include "mstage/algorithm/detail/scan_common.hpp"
#include "mstage/builtins.h"

namespace mstage::detail {

// The inclusive scan of v over the warp's lanes, returned to each lane; the
// last lane's is the warp's total. exclusive gets the scan up to the lane
// before (meaningless in lane 0).
template <class T, class Op>
T block_scan_warp_inclusive(T v, const Op &op, T &exclusive) {
  unsigned lane = __mstage_lane_id();
  for (unsigned d = 1; d < 32; d *= 2) {
    T other = scan_shfl_up(v, d);
    if (lane >= d)
      v = static_cast<T>(op(other, v));
  }
  exclusive = scan_shfl_up(v, 1);
  return v;
}

// The exclusive sum of v over the block's threads (Block of them, a multiple
// of 32), and the block's total in total; warpMem holds Block / 32 values.
// Ends with a barrier, so warpMem may be used again after it.
template <unsigned Block, class T>
T block_scan_exclusive_sum(T v, T *warpMem, T &total) {
  constexpr unsigned Warps = Block / 32;
  unsigned tid = __mstage_tid_x(), lane = tid % 32, warp = tid / 32;
  T excl;
  T incl = block_scan_warp_inclusive(v, [](T a, T b) { return T(a + b); }, excl);
  if (lane == 0)
    excl = T(0);
  if (lane == 31)
    warpMem[warp] = incl;
  __mstage_barrier();
  T before = T(0), sum = T(0);
  for (unsigned w = 0; w < Warps; ++w) {
    T x = warpMem[w];
    if (w < warp)
      before += x;
    sum += x;
  }
  total = sum;
  __mstage_barrier();
  return before + excl;
}

} // namespace mstage::detail

#endif
