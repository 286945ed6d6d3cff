// Warp primitives, as in CUDA's *_sync functions: every function takes the
// mask of participating lanes (defaulting to the whole warp) after its
// operands, and the shuffles then take CUDA's width. Shuffles move any
// trivially copyable value of 4 or 8 bytes.
//
//   auto sum = x;
//   for (unsigned d = 16; d > 0; d /= 2)
//     sum += mstage::warp::shfl_down(sum, d);   // lane 0 has the warp's sum
#ifndef MSTAGE_WARP_HPP
#define MSTAGE_WARP_HPP

#include "mstage/builtins.h"

#include <cstring>
#include <type_traits>

namespace mstage::warp {

inline constexpr unsigned full_mask = 0xffffffffu;
inline constexpr unsigned size = 32;

inline unsigned lane_id() { return __mstage_lane_id(); }
inline unsigned activemask() { return __mstage_activemask(); }
inline void sync(unsigned mask = full_mask) { __mstage_syncwarp(mask); }
inline unsigned ballot(bool pred, unsigned mask = full_mask) {
  return __mstage_ballot(mask, pred);
}
inline bool any(bool pred, unsigned mask = full_mask) {
  return __mstage_any(mask, pred) != 0;
}
inline bool all(bool pred, unsigned mask = full_mask) {
  return __mstage_all(mask, pred) != 0;
}

namespace detail {
// Applies the 32-bit shuffle Op to each 32-bit word of V.
template <class T, class Op> T shuffleWords(T V, Op Shuffle) {
  static_assert(std::is_trivially_copyable_v<T> &&
                    (sizeof(T) == 4 || sizeof(T) == 8),
                "warp shuffles move values of 4 or 8 bytes");
  int Words[sizeof(T) / 4];
  std::memcpy(Words, &V, sizeof(T));
  for (int &W : Words)
    W = Shuffle(W);
  std::memcpy(&V, Words, sizeof(T));
  return V;
}
} // namespace detail

// A shuffle's width (a power of 2 up to 32) splits the warp into segments
// that shuffle separately, as CUDA's width argument does: lanes are then
// counted from the start of the caller's segment.

// The value of lane src_lane (modulo width).
template <class T>
T shfl(T v, int src_lane, unsigned mask = full_mask, int width = int(size)) {
  return detail::shuffleWords(
      v, [&](int W) { return __mstage_shfl_i32(mask, W, src_lane, width); });
}
// The value of lane lane_id() - delta (a lane below delta keeps its own).
template <class T>
T shfl_up(T v, unsigned delta, unsigned mask = full_mask,
          int width = int(size)) {
  return detail::shuffleWords(
      v, [&](int W) { return __mstage_shfl_up_i32(mask, W, delta, width); });
}
// The value of lane lane_id() + delta (a lane past width - 1 - delta keeps
// its own).
template <class T>
T shfl_down(T v, unsigned delta, unsigned mask = full_mask,
            int width = int(size)) {
  return detail::shuffleWords(
      v, [&](int W) { return __mstage_shfl_down_i32(mask, W, delta, width); });
}
// The value of lane lane_id() ^ lane_mask.
template <class T>
T shfl_xor(T v, int lane_mask, unsigned mask = full_mask,
           int width = int(size)) {
  return detail::shuffleWords(v, [&](int W) {
    return __mstage_shfl_xor_i32(mask, W, lane_mask, width);
  });
}

} // namespace mstage::warp

#endif
