// The radix sort's view of a key: an unsigned integer of the key's size
// whose order is the key's order. Unsigned keys are their own bits; signed
// ones have the sign bit flipped; floating-point ones have the sign bit
// flipped when it is clear and every bit flipped when it is set, so that
//   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN
// (NaNs by the sign bit, -0.0 before +0.0: the bits' total order, which
// std::sort leaves unspecified for NaNs and for zeros of either sign).
#ifndef MSTAGE_ALGORITHM_DETAIL_RADIX_KEYS_HPP
#define MSTAGE_ALGORITHM_DETAIL_RADIX_KEYS_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace mstage::detail {

template <std::size_t Bytes> struct radix_unsigned;
template <> struct radix_unsigned<1> { using type = std::uint8_t; };
template <> struct radix_unsigned<2> { using type = std::uint16_t; };
template <> struct radix_unsigned<4> { using type = std::uint32_t; };
template <> struct radix_unsigned<8> { using type = std::uint64_t; };

template <class _Kp>
inline constexpr bool radix_sortable =
    (std::is_integral_v<_Kp> && !std::is_same_v<_Kp, bool>) ||
    std::is_same_v<_Kp, float> || std::is_same_v<_Kp, double>;

template <class _Kp> struct radix_key {
  using bits = typename radix_unsigned<sizeof(_Kp)>::type;
  static constexpr unsigned passes = sizeof(_Kp); // 8 bits a pass
  static constexpr bits sign = bits(bits(1) << (8 * sizeof(_Kp) - 1));

  static bits to_bits(_Kp k) {
    bits u;
    std::memcpy(&u, &k, sizeof(_Kp));
    if constexpr (std::is_floating_point_v<_Kp>)
      return (u & sign) ? bits(~u) : bits(u | sign);
    else if constexpr (std::is_signed_v<_Kp>)
      return bits(u ^ sign);
    else
      return u;
  }
  // The key of to_bits's bits.
  static _Kp from_bits(bits u) {
    if constexpr (std::is_floating_point_v<_Kp>)
      u = (u & sign) ? bits(u ^ sign) : bits(~u);
    else if constexpr (std::is_signed_v<_Kp>)
      u = bits(u ^ sign);
    _Kp k;
    std::memcpy(&k, &u, sizeof(_Kp));
    return k;
  }
  static unsigned digit(_Kp k, unsigned pass) {
    return unsigned(to_bits(k) >> (8 * pass)) & 255u;
  }
};

} // namespace mstage::detail

#endif
