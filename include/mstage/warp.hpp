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
template <class _Tp, class _Op> _Tp shuffleWords(_Tp _Vp, _Op Shuffle) {
  static_assert(std::is_trivially_copyable_v<_Tp> &&
                    (sizeof(_Tp) == 4 || sizeof(_Tp) == 8),
                "warp shuffles move values of 4 or 8 bytes");
  int Words[sizeof(_Tp) / 4];
  std::memcpy(Words, &_Vp, sizeof(_Tp));
  for (int &_Wp : Words)
    _Wp = Shuffle(_Wp);
  std::memcpy(&_Vp, Words, sizeof(_Tp));
  return _Vp;
}
} // namespace detail

// A shuffle's width (a power of 2 up to 32) splits the warp into segments
// that shuffle separately, as CUDA's width argument does: lanes are then
// counted from the start of the caller's segment.

// The value of lane src_lane (modulo width).
template <class _Tp>
_Tp shfl(_Tp v, int src_lane, unsigned mask = full_mask,
         int width = int(size)) {
  return detail::shuffleWords(v, [&](int _Wp) {
    return __mstage_shfl_i32(mask, _Wp, src_lane, width);
  });
}
// The value of lane lane_id() - delta (a lane below delta keeps its own).
template <class _Tp>
_Tp shfl_up(_Tp v, unsigned delta, unsigned mask = full_mask,
            int width = int(size)) {
  return detail::shuffleWords(v, [&](int _Wp) {
    return __mstage_shfl_up_i32(mask, _Wp, delta, width);
  });
}
// The value of lane lane_id() + delta (a lane past width - 1 - delta keeps
// its own).
template <class _Tp>
_Tp shfl_down(_Tp v, unsigned delta, unsigned mask = full_mask,
              int width = int(size)) {
  return detail::shuffleWords(v, [&](int _Wp) {
    return __mstage_shfl_down_i32(mask, _Wp, delta, width);
  });
}
// The value of lane lane_id() ^ lane_mask.
template <class _Tp>
_Tp shfl_xor(_Tp v, int lane_mask, unsigned mask = full_mask,
             int width = int(size)) {
  return detail::shuffleWords(v, [&](int _Wp) {
    return __mstage_shfl_xor_i32(mask, _Wp, lane_mask, width);
  });
}

// The lanes of mask whose v equals the caller's (CUDA's __match_any_sync),
// and mask when every lane of it has the caller's v, else 0 (CUDA's
// __match_all_sync, whose predicate is the result's being non-zero).
// match.sync (sm_70 and later); v is any trivially copyable value of 4 or 8
// bytes, compared bit for bit.
namespace detail {
// V's bits, as the 32- or 64-bit operand of match.sync.
template <class _Tp> auto matchBits(_Tp _Vp) {
  static_assert(std::is_trivially_copyable_v<_Tp> &&
                    (sizeof(_Tp) == 4 || sizeof(_Tp) == 8),
                "warp::match_any and match_all compare values of 4 or 8 bytes");
  using _Bits =
      std::conditional_t<sizeof(_Tp) == 4, unsigned, unsigned long long>;
  _Bits _Bp;
  std::memcpy(&_Bp, &_Vp, sizeof(_Tp));
  return _Bp;
}
} // namespace detail

template <class _Tp> unsigned match_any(_Tp v, unsigned mask = full_mask) {
  auto _Bp = detail::matchBits(v);
  if constexpr (sizeof(_Bp) == 4)
    return __mstage_match_any_i32(mask, _Bp);
  else
    return __mstage_match_any_i64(mask, _Bp);
}
template <class _Tp> unsigned match_all(_Tp v, unsigned mask = full_mask) {
  auto _Bp = detail::matchBits(v);
  int _Pred;
  if constexpr (sizeof(_Bp) == 4)
    return __mstage_match_all_i32(mask, _Bp, &_Pred);
  else
    return __mstage_match_all_i64(mask, _Bp, &_Pred);
}

// The reduction of v over the lanes of mask, given to each of them (CUDA's
// __reduce_*_sync): redux.sync on sm_80 and later, 32 shuffles below. min
// and max compare as the operand's type does; and, or and xor take unsigned.
inline unsigned reduce_add(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_add(mask, v);
}
inline int reduce_add(int v, unsigned mask = full_mask) {
  return int(__mstage_redux_add(mask, unsigned(v)));
}
inline unsigned reduce_min(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_umin(mask, v);
}
inline int reduce_min(int v, unsigned mask = full_mask) {
  return __mstage_redux_min(mask, v);
}
inline unsigned reduce_max(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_umax(mask, v);
}
inline int reduce_max(int v, unsigned mask = full_mask) {
  return __mstage_redux_max(mask, v);
}
inline unsigned reduce_and(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_and(mask, v);
}
inline unsigned reduce_or(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_or(mask, v);
}
inline unsigned reduce_xor(unsigned v, unsigned mask = full_mask) {
  return __mstage_redux_xor(mask, v);
}

} // namespace mstage::warp

#endif
