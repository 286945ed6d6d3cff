// Warp-level building blocks of the block reduction, the block scan and the
// scan's look-back: shuffles of values of any trivially copyable type (the
// hardware's move 4 bytes; these move a T 32 bits at a time) and the warp's
// inclusive scan.
#ifndef MSTAGE_ALGORITHM_DETAIL_WARP_HPP
#define MSTAGE_ALGORITHM_DETAIL_WARP_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/builtins.h"

#include <cstring>

namespace mstage::detail {

// f applied to each 32-bit word of v (the last one zero-padded).
template <class _Tp, class Shuffle> _Tp shuffle_words(const _Tp &v, Shuffle f) {
  constexpr unsigned Words = (sizeof(_Tp) + 3) / 4;
  int w[Words] = {};
  std::memcpy(w, static_cast<const void *>(&v), sizeof(_Tp));
  for (unsigned i = 0; i < Words; ++i)
    w[i] = f(w[i]);
  raw_storage<_Tp> r;
  std::memcpy(r.bytes, w, sizeof(_Tp));
  return from_raw(r);
}

// Lane lane_id() - d's v (lanes below d keep their own).
template <class _Tp> _Tp shfl_up_any(const _Tp &v, unsigned d) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_up_i32(~0u, x, d, 32); });
}
// Lane lane_id() + d's v (lanes past 31 - d keep their own).
template <class _Tp> _Tp shfl_down_any(const _Tp &v, unsigned d) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_down_i32(~0u, x, d, 32); });
}
// Lane `lane`'s v.
template <class _Tp> _Tp shfl_any(const _Tp &v, int lane) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_i32(~0u, x, lane, 32); });
}

// The inclusive scan of v over the warp's lanes by op, in lane order (op
// need not be commutative); the last lane's is the warp's total. exclusive
// gets the scan up to the lane before (meaningless in lane 0).
template <class _Tp, class _Op>
_Tp warp_inclusive_scan(_Tp v, const _Op &op, _Tp &exclusive) {
  unsigned lane = __mstage_lane_id();
  for (unsigned d = 1; d < 32; d *= 2) {
    _Tp other = shfl_up_any(v, d);
    if (lane >= d)
      v = apply_op(op, other, v);
  }
  exclusive = shfl_up_any(v, 1);
  return v;
}

} // namespace mstage::detail

#endif
