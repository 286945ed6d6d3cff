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
template <class T, class Shuffle> T shuffle_words(const T &v, Shuffle f) {
  constexpr unsigned Words = (sizeof(T) + 3) / 4;
  int w[Words] = {};
  std::memcpy(w, static_cast<const void *>(&v), sizeof(T));
  for (unsigned i = 0; i < Words; ++i)
    w[i] = f(w[i]);
  raw_storage<T> r;
  std::memcpy(r.bytes, w, sizeof(T));
  return from_raw(r);
}

// Lane lane_id() - d's v (lanes below d keep their own).
template <class T> T shfl_up_any(const T &v, unsigned d) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_up_i32(~0u, x, d, 32); });
}
// Lane lane_id() + d's v (lanes past 31 - d keep their own).
template <class T> T shfl_down_any(const T &v, unsigned d) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_down_i32(~0u, x, d, 32); });
}
// Lane `lane`'s v.
template <class T> T shfl_any(const T &v, int lane) {
  return shuffle_words(
      v, [&](int x) { return __mstage_shfl_i32(~0u, x, lane, 32); });
}

// The inclusive scan of v over the warp's lanes by op, in lane order (op
// need not be commutative); the last lane's is the warp's total. exclusive
// gets the scan up to the lane before (meaningless in lane 0).
template <class T, class Op>
T warp_inclusive_scan(T v, const Op &op, T &exclusive) {
  unsigned lane = __mstage_lane_id();
  for (unsigned d = 1; d < 32; d *= 2) {
    T other = shfl_up_any(v, d);
    if (lane >= d)
      v = apply_op(op, other, v);
  }
  exclusive = shfl_up_any(v, 1);
  return v;
}

} // namespace mstage::detail

#endif
