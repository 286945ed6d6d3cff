// Half precision: mstage::half (IEEE binary16, CUDA's __half) and
// mstage::bfloat16 (CUDA's __nv_bfloat16), 2 bytes each, trivially copyable.
//
//   mstage::half a(1.5f), b(0.25f);
//   mstage::half c = a * b + a;      // f16 arithmetic, rounded to half
//   float f = float(c);              // conversions are explicit both ways
//
// Between two of the same type, + - * / give that type, rounded once (IEEE
// round to nearest even), and comparisons are IEEE's. Mixed operands
// (half + float, half + bfloat16) do not compile: convert explicitly.
//
// They wrap clang's _Float16 and __bf16. On x86-64, where kernels are first
// compiled, clang computes _Float16 and __bf16 expressions in float and
// rounds at the end ("excess precision"). Each operator here rounds its one
// result, which is the correctly rounded half result (float has more than
// twice half's precision), and the device optimizer's InstCombine narrows
// fpext/fadd/fptrunc back to one `fadd half` / `fadd bfloat`: the PTX has
// add.rn.f16 / add.rn.bf16 (test/types/half-ptx.cpp), not a float round trip.
#ifndef MSTAGE_HALF_HPP
#define MSTAGE_HALF_HPP

#include <cstdint>
#include <cstring>

namespace mstage {

namespace detail {

// The operations both types share. Derived is half or bfloat16, Rep its
// clang type.
template <class Derived, class Rep> class half_base {
public:
  half_base() = default;
  explicit constexpr half_base(float _Fp) : v_(static_cast<Rep>(_Fp)) {}
  explicit constexpr operator float() const { return static_cast<float>(v_); }

  // The bit pattern, and a value from one (as __half_as_ushort and
  // __ushort_as_half).
  std::uint16_t bits() const {
    std::uint16_t _Bp;
    std::memcpy(&_Bp, &v_, 2);
    return _Bp;
  }
  static Derived from_bits(std::uint16_t _Bp) {
    Derived _Dp;
    std::memcpy(&_Dp.v_, &_Bp, 2);
    return _Dp;
  }

  friend constexpr Derived operator+(Derived _Ap, Derived _Bp) {
    return make(static_cast<Rep>(_Ap.v_ + _Bp.v_));
  }
  friend constexpr Derived operator-(Derived _Ap, Derived _Bp) {
    return make(static_cast<Rep>(_Ap.v_ - _Bp.v_));
  }
  friend constexpr Derived operator*(Derived _Ap, Derived _Bp) {
    return make(static_cast<Rep>(_Ap.v_ * _Bp.v_));
  }
  friend constexpr Derived operator/(Derived _Ap, Derived _Bp) {
    return make(static_cast<Rep>(_Ap.v_ / _Bp.v_));
  }
  friend constexpr Derived operator-(Derived _Ap) { return make(-_Ap.v_); }
  friend constexpr Derived operator+(Derived _Ap) { return _Ap; }
  friend constexpr Derived &operator+=(Derived &_Ap, Derived _Bp) {
    return _Ap = _Ap + _Bp;
  }
  friend constexpr Derived &operator-=(Derived &_Ap, Derived _Bp) {
    return _Ap = _Ap - _Bp;
  }
  friend constexpr Derived &operator*=(Derived &_Ap, Derived _Bp) {
    return _Ap = _Ap * _Bp;
  }
  friend constexpr Derived &operator/=(Derived &_Ap, Derived _Bp) {
    return _Ap = _Ap / _Bp;
  }

  friend constexpr bool operator==(Derived _Ap, Derived _Bp) {
    return _Ap.v_ == _Bp.v_;
  }
  friend constexpr bool operator!=(Derived _Ap, Derived _Bp) {
    return _Ap.v_ != _Bp.v_;
  }
  friend constexpr bool operator<(Derived _Ap, Derived _Bp) {
    return _Ap.v_ < _Bp.v_;
  }
  friend constexpr bool operator<=(Derived _Ap, Derived _Bp) {
    return _Ap.v_ <= _Bp.v_;
  }
  friend constexpr bool operator>(Derived _Ap, Derived _Bp) {
    return _Ap.v_ > _Bp.v_;
  }
  friend constexpr bool operator>=(Derived _Ap, Derived _Bp) {
    return _Ap.v_ >= _Bp.v_;
  }

protected:
  static constexpr Derived make(Rep _Rp) {
    Derived _Dp;
    _Dp.v_ = _Rp;
    return _Dp;
  }

  Rep v_;
};

} // namespace detail

// IEEE binary16: 1 sign, 5 exponent and 10 fraction bits.
class half : public detail::half_base<half, _Float16> {
public:
  half() = default;
  using half_base::half_base;
};

// bfloat16: float's 8 exponent bits, 7 fraction bits.
class bfloat16 : public detail::half_base<bfloat16, __bf16> {
public:
  bfloat16() = default;
  using half_base::half_base;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2);
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);

// Two halves in 4 bytes, as CUDA's __half2 (loaded and stored as one word).
struct alignas(4) half2 {
  half x, y;
};
struct alignas(4) bfloat162 {
  bfloat16 x, y;
};

} // namespace mstage

#endif
