//===- math.cpp - GPU suite: <cmath> in kernels against the CPU ------------===//
//
// Each function of <cmath> below runs for float and double on inputs spread
// over its domain, in one kernel, and is compared with the host's std::
// function in units in the last place (ULP). The bound is 4 ULP for every
// function: within what libdevice documents for each (most are 1-2 ULP; the
// exactly rounded ones, sqrt, fma, floor, fabs, fmin and fmax, must be 0,
// and are checked so).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr const char *Name = "math";
constexpr unsigned N = 4096;
constexpr int NumFns = 16;
const char *FnNames[NumFns] = {"sqrt", "exp",  "log",   "pow",  "sin",  "cos",
                               "tanh", "fma",  "floor", "fabs", "fmin", "fmax",
                               "atan2", "cbrt", "log1p", "expm1"};
// Functions that IEEE (or their definition) makes exact.
const bool Exact[NumFns] = {true,  false, false, false, false, false,
                            false, true,  true,  true,  true,  true,
                            false, false, false, false};

template <class T> T input(unsigned I, int Fn) {
  T U = T(I) / T(N); // [0, 1)
  switch (Fn) {
  case 0: case 2: case 13: case 14: // positive arguments
    return T(1e-3) + U * T(100);
  case 3: // pow: base
    return T(0.1) + U * T(4);
  default:
    return (U - T(0.5)) * T(20);
  }
}

template <class T> T apply(int Fn, T X, T Y) {
  switch (Fn) {
  case 0: return std::sqrt(X);
  case 1: return std::exp(X);
  case 2: return std::log(X);
  case 3: return std::pow(X, Y);
  case 4: return std::sin(X);
  case 5: return std::cos(X);
  case 6: return std::tanh(X);
  case 7: return std::fma(X, Y, X);
  case 8: return std::floor(X);
  case 9: return std::fabs(X);
  case 10: return std::fmin(X, Y);
  case 11: return std::fmax(X, Y);
  case 12: return std::atan2(X, Y);
  case 13: return std::cbrt(X);
  case 14: return std::log1p(X);
  default: return std::expm1(X);
  }
}

// Distance in ULP between two finite values of the same sign class.
template <class T> uint64_t ulps(T A, T B) {
  using U = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  U IA, IB;
  std::memcpy(&IA, &A, sizeof(T));
  std::memcpy(&IB, &B, sizeof(T));
  if (IA < 0)
    IA = std::numeric_limits<U>::min() - IA;
  if (IB < 0)
    IB = std::numeric_limits<U>::min() - IB;
  return IA > IB ? uint64_t(IA) - uint64_t(IB) : uint64_t(IB) - uint64_t(IA);
}

template <class T> bool check(const char *Type) {
  std::vector<T> Out(size_t(N) * NumFns);
  mstage::kernel(
      [](auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        for (int Fn = 0; Fn < NumFns; ++Fn)
          Out[size_t(Fn) * N + I] =
              apply<T>(Fn, input<T>(I, Fn), input<T>((I * 7 + 3) % N, 3));
      },
      N / 128, 128)(Out);
  bool OK = true;
  for (int Fn = 0; Fn < NumFns && OK; ++Fn) {
    uint64_t Worst = 0;
    for (unsigned I = 0; I < N; ++I) {
      T Want = apply<T>(Fn, input<T>(I, Fn), input<T>((I * 7 + 3) % N, 3));
      T Got = Out[size_t(Fn) * N + I];
      uint64_t D = ulps(Got, Want);
      if (D > Worst)
        Worst = D;
      if (D > (Exact[Fn] ? 0u : 4u) || std::isnan(Got) != std::isnan(Want)) {
        std::printf("FAIL %s: %s(%s) at input %u: %.17g, expected %.17g (%llu "
                    "ULP)\n",
                    Name, FnNames[Fn], Type, I, double(Got), double(Want),
                    (unsigned long long)D);
        OK = false;
        break;
      }
    }
  }
  return OK;
}

int run() {
  if (mstage_rt_executes() != 1) {
    std::printf("SKIP %s: no GPU\n", Name);
    return 0;
  }
  if (!check<float>("float") || !check<double>("double"))
    return 1;
  std::printf("PASS %s: %d functions, float and double, %u inputs each, "
              "within 4 ULP (0 for the exact ones)\n",
              Name, NumFns, N);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
