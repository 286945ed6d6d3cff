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
template <class T> struct check_as {};

} // namespace mstage

namespace mstage::detail {

template <class T, class = void> struct has_check_as : std::false_type {};
template <class T>
struct has_check_as<T, std::void_t<typename check_as<T>::type>>
    : std::true_type {};

// On the CPU back end the launch itself ran on the CPU: two runs compared.
inline bool two_cpu_runs() {
  return std::strcmp(mstage_rt_backend(), "cpu") == 0;
}

// The values an element is compared as: itself, or check_as's.
template <class T, class = void> struct compared_as { using type = T; };
template <class T>
struct compared_as<T, std::enable_if_t<has_check_as<T>::value>> {
  using type = typename check_as<T>::type;
  static_assert(std::is_arithmetic_v<type> && sizeof(T) % sizeof(type) == 0,
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
template <class T>
std::string first_divergence(const T *Gpu, const T *Cpu, std::size_t N) {
  using E = typename compared_as<T>::type;
  constexpr bool Values = std::is_arithmetic_v<E>;
  constexpr std::size_t K = Values ? sizeof(T) / sizeof(E) : 1;
  // The I-th element's values, copied out (no aliasing through casts).
  auto ValuesOf = [&](const T *A, std::size_t I, E(&Out)[K]) {
    std::memcpy(Out, &A[I], sizeof(Out));
  };
  const bool TwoCpuRuns = two_cpu_runs();
  const double Rtol = mstage_rt_check_tolerance();
  double Scale = 0;
  if constexpr (std::is_floating_point_v<E>)
    for (std::size_t I = 0; I < N; ++I) {
      E C[K];
      ValuesOf(Cpu, I, C);
      for (E V : C)
        if (std::isfinite(V))
          Scale = std::max(Scale, std::fabs(double(V)));
    }
  for (std::size_t I = 0; I < N; ++I) {
    std::size_t Bad = K; // the first value that differs, or K
    E G[K], C[K];
    if constexpr (Values) {
      ValuesOf(Gpu, I, G);
      ValuesOf(Cpu, I, C);
      for (std::size_t J = 0; J < K && Bad == K; ++J) {
        bool Same;
        if constexpr (std::is_floating_point_v<E>) {
          double A = G[J], B = C[J];
          Same = A == B || (std::isnan(A) && std::isnan(B)) ||
                 std::fabs(A - B) <=
                     Rtol * std::max({std::fabs(A), std::fabs(B), Scale});
        } else {
          Same = G[J] == C[J];
        }
        if (!Same)
          Bad = J;
      }
    } else if (std::memcmp(&Gpu[I], &Cpu[I], sizeof(T)) != 0) {
      Bad = 0;
    }
    if (Bad == K)
      continue;
    std::ostringstream OS;
    OS.precision(9);
    OS << "element " << I << " of " << N;
    if constexpr (!Values) {
      OS << " differs (compared byte for byte)";
    } else {
      if (K > 1)
        OS << ", value " << Bad << " of its " << K;
      OS << (TwoCpuRuns ? ": first run " : ": GPU ") << +G[Bad]
         << (TwoCpuRuns ? ", second run " : ", CPU ") << +C[Bad];
    }
    return OS.str();
  }
  return "";
}

} // namespace mstage::detail

#endif
