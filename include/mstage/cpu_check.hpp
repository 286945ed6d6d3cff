// MSTAGE_CHECK=cpu: every launch on the GPU runs again on the CPU back end,
// on copies of its inputs, and the outputs are compared; the first element
// that differs is reported with its kernel, argument and index.
#ifndef MSTAGE_CPU_CHECK_HPP
#define MSTAGE_CPU_CHECK_HPP

#include "mstage/abi.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

namespace mstage {

// MSTAGE_CHECK=cpu compares elements of class type byte for byte. A struct
// made only of one arithmetic type E (a float4-like body, say) can instead
// be compared as that many E values, each with the tolerance:
//   template <> struct mstage::check_as<data_t> { using type = float; };
template <class _Tp> struct check_as {};

} // namespace mstage

namespace mstage::detail {

template <class _Tp, class = void> struct has_check_as : std::false_type {};
template <class _Tp>
struct has_check_as<_Tp, std::void_t<typename check_as<_Tp>::type>>
    : std::true_type {};

// On the CPU back end the launch itself ran on the CPU: two runs compared.
inline bool two_cpu_runs() {
  return std::strcmp(mstage_rt_backend(), "cpu") == 0;
}

// The values an element is compared as: itself, or check_as's.
template <class _Tp, class = void> struct compared_as {
  using type = _Tp;
};
template <class _Tp>
struct compared_as<_Tp, std::enable_if_t<has_check_as<_Tp>::value>> {
  using type = typename check_as<_Tp>::type;
  static_assert(std::is_arithmetic_v<type> && sizeof(_Tp) % sizeof(type) == 0,
                "mstage::check_as<T>::type must be the arithmetic type that "
                "T is made of");
};

// "" when Gpu and Cpu agree, else where and how they first differ. Floating
// point values agree within the relative tolerance MSTAGE_CHECK_RTOL
// (default 1e-5; NaN agrees with NaN) of the larger of the two, or of the
// array's largest magnitude: a value near 0 that comes from cancellation
// (the GPU fuses a * x + y, the host rounds the product first) is judged
// against the array's scale. Integers agree exactly, elements of other
// types byte for byte (unless check_as says what they are made of).
template <class _Tp>
std::string first_divergence(const _Tp *Gpu, const _Tp *Cpu, std::size_t _Np) {
  using _Ep = typename compared_as<_Tp>::type;
  constexpr bool Values = std::is_arithmetic_v<_Ep>;
  constexpr std::size_t _Kp = Values ? sizeof(_Tp) / sizeof(_Ep) : 1;
  // The I-th element's values, copied out (no aliasing through casts).
  auto ValuesOf = [&](const _Tp *_Ap, std::size_t _Ip, _Ep(&_Out)[_Kp]) {
    std::memcpy(_Out, &_Ap[_Ip], sizeof(_Out));
  };
  const bool TwoCpuRuns = two_cpu_runs();
  const double Rtol = mstage_rt_check_tolerance();
  double Scale = 0;
  if constexpr (std::is_floating_point_v<_Ep>)
    for (std::size_t _Ip = 0; _Ip < _Np; ++_Ip) {
      _Ep _Cp[_Kp];
      ValuesOf(Cpu, _Ip, _Cp);
      for (_Ep _Vp : _Cp)
        if (std::isfinite(_Vp))
          Scale = std::max(Scale, std::fabs(double(_Vp)));
    }
  for (std::size_t _Ip = 0; _Ip < _Np; ++_Ip) {
    std::size_t Bad = _Kp; // the first value that differs, or K
    _Ep _Gp[_Kp], _Cp[_Kp];
    if constexpr (Values) {
      ValuesOf(Gpu, _Ip, _Gp);
      ValuesOf(Cpu, _Ip, _Cp);
      for (std::size_t _Jp = 0; _Jp < _Kp && Bad == _Kp; ++_Jp) {
        bool Same;
        if constexpr (std::is_floating_point_v<_Ep>) {
          double _Ap = _Gp[_Jp], _Bp = _Cp[_Jp];
          Same = _Ap == _Bp || (std::isnan(_Ap) && std::isnan(_Bp)) ||
                 std::fabs(_Ap - _Bp) <=
                     Rtol * std::max({std::fabs(_Ap), std::fabs(_Bp), Scale});
        } else {
          Same = _Gp[_Jp] == _Cp[_Jp];
        }
        if (!Same)
          Bad = _Jp;
      }
    } else if (std::memcmp(&Gpu[_Ip], &Cpu[_Ip], sizeof(_Tp)) != 0) {
      Bad = 0;
    }
    if (Bad == _Kp)
      continue;
    std::ostringstream _OS;
    _OS.precision(9);
    _OS << "element " << _Ip << " of " << _Np;
    if constexpr (!Values) {
      _OS << " differs (compared byte for byte)";
    } else {
      if (_Kp > 1)
        _OS << ", value " << Bad << " of its " << _Kp;
      _OS << (TwoCpuRuns ? ": first run " : ": GPU ") << +_Gp[Bad]
          << (TwoCpuRuns ? ", second run " : ", CPU ") << +_Cp[Bad];
    }
    return _OS.str();
  }
  return "";
}

} // namespace mstage::detail

#endif
