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

namespace mstage::detail {

// "" when Gpu and Cpu agree, else where and how they first differ. Floating
// point elements agree within the relative tolerance MSTAGE_CHECK_RTOL
// (default 1e-5; NaN agrees with NaN) of the larger of the two, or of the
// array's largest magnitude: an element near 0 that comes from cancellation
// (the GPU fuses a * x + y, the host rounds the product first) is judged
// against the array's scale. Integers agree exactly, elements of other
// types byte for byte.
template <class T>
std::string first_divergence(const T *Gpu, const T *Cpu, std::size_t N) {
  // On the CPU back end the launch itself ran on the CPU: two runs compared.
  const bool TwoCpuRuns = std::strcmp(mstage_rt_backend(), "cpu") == 0;
  const double Rtol = mstage_rt_check_tolerance();
  double Scale = 0;
  if constexpr (std::is_floating_point_v<T>)
    for (std::size_t I = 0; I < N; ++I)
      if (std::isfinite(Cpu[I]))
        Scale = std::max(Scale, std::fabs(double(Cpu[I])));
  for (std::size_t I = 0; I < N; ++I) {
    bool Same;
    if constexpr (std::is_floating_point_v<T>) {
      double G = Gpu[I], C = Cpu[I];
      Same = G == C || (std::isnan(G) && std::isnan(C)) ||
             std::fabs(G - C) <=
                 Rtol * std::max({std::fabs(G), std::fabs(C), Scale});
    } else if constexpr (std::is_integral_v<T>) {
      Same = Gpu[I] == Cpu[I];
    } else {
      Same = std::memcmp(&Gpu[I], &Cpu[I], sizeof(T)) == 0;
    }
    if (Same)
      continue;
    std::ostringstream OS;
    OS.precision(9);
    OS << "element " << I << " of " << N;
    if constexpr (std::is_arithmetic_v<T>)
      OS << (TwoCpuRuns ? ": first run " : ": GPU ") << +Gpu[I]
         << (TwoCpuRuns ? ", second run " : ", CPU ") << +Cpu[I];
    else
      OS << " differs (compared byte for byte)";
    return OS.str();
  }
  return "";
}

} // namespace mstage::detail

#endif
