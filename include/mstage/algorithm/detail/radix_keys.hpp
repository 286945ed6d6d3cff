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

template <class K>
inline constexpr bool
    radix_sortable = (std::is_integral_v<K> && !std::is_same_v<K, bool>) ||
                     std::is_same_v<K, float> || std::is_same_v<K, double>;

template <class K> struct radix_key {
  using bits = typename radix_unsigned<sizeof(K)>::type;
  static constexpr unsigned passes = sizeof(K); // 8 bits a pass
  static constexpr bits sign = bits(bits(1) << (8 * sizeof(K) - 1));

  static bits to_bits(K k) {
    bits u;
    std::memcpy(&u, &k, sizeof(K));
    if constexpr (std::is_floating_point_v<K>)
      return (u & sign) ? bits(~u) : bits(u | sign);
    else if constexpr (std::is_signed_v<K>)
      return bits(u ^ sign);
    else
      return u;
  }
  // The key of to_bits's bits.
  static K from_bits(bits u) {
    if constexpr (std::is_floating_point_v<K>)
      u = (u & sign) ? bits(u ^ sign) : bits(~u);
    else if constexpr (std::is_signed_v<K>)
      u = bits(u ^ sign);
    K k;
    std::memcpy(&k, &u, sizeof(K));
    return k;
  }
  static unsigned digit(K k, unsigned pass) {
    return unsigned(to_bits(k) >> (8 * pass)) & 255u;
  }
};

} // namespace mstage::detail

#endif
