//===- argument_tests.cpp - GPU suite: kernels versioned on their tests --===//
//
// The JIT gives a kernel whose loop branches on special-value tests of its
// arguments (powf's tests of its base: 1, 0, -1, infinity, NaN, below zero)
// a copy in which each test takes its usual outcome, chosen at the entry
// (passes/transforms/UniformVersioning.h). Both copies must compute what the
// original did: powf(B, E) in a loop over exponents, with B a kernel
// argument taking usual values (the copy runs) and each special value (the
// original body runs), against the host's powf within 4 ULP (libdevice's
// bound is 2), NaN where the host gives NaN.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr const char *Name = "argument_tests";
constexpr unsigned Threads = 256;
// Exponents, integral and not, of both signs, zero.
const std::vector<float> Exponents = {1,    2,     3,   0.5f, -1,  -2.5f, 0,
                                      7,    -3,    0.25f, 10, 1.5f, -0.5f, 4};

uint32_t ulps(float A, float B) {
  int32_t IA, IB;
  std::memcpy(&IA, &A, 4);
  std::memcpy(&IB, &B, 4);
  if (IA < 0)
    IA = std::numeric_limits<int32_t>::min() - IA;
  if (IB < 0)
    IB = std::numeric_limits<int32_t>::min() - IB;
  return IA > IB ? uint32_t(IA - IB) : uint32_t(IB - IA);
}

// Each thread walks every exponent (the loop whose branches test B) and
// keeps the power at its own one, so that the tests stay in the loop.
bool checkBase(SuiteChecks &Checks, float B) {
  const int NumExp = int(Exponents.size());
  std::vector<float> E = Exponents, Got(Threads);
  mstage::kernel(
      [](float B, int NumExp, auto &E, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        float Kept = 0;
        for (int K = 0; K < NumExp; ++K) {
          float P = powf(B, E[K]);
          if (unsigned(K) == I % unsigned(NumExp))
            Kept = P;
        }
        Out[I] = Kept;
      },
      1, Threads)(B, NumExp, E, Got);
  for (unsigned I = 0; I < Threads; ++I) {
    float Want = std::pow(B, Exponents[I % NumExp]);
    bool Ok = std::isnan(Want) ? std::isnan(Got[I])
                               : !std::isnan(Got[I]) && ulps(Got[I], Want) <= 4;
    if (!Ok) {
      Checks.report(false, "powf(" + std::to_string(B) + ", " +
                               std::to_string(Exponents[I % NumExp]) +
                               ") = " + std::to_string(Got[I]) +
                               ", the host's " + std::to_string(Want));
      return false;
    }
  }
  return true;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  SuiteChecks Checks(Name);
  const float Inf = std::numeric_limits<float>::infinity();
  const float Usual[] = {0.9f, 2.0f, 0.5f, 1e-20f, 3.5f};
  const float Special[] = {1.0f, 0.0f,  -0.0f, -1.0f, Inf,
                           -Inf, -0.5f, -2.0f, std::nanf("")};
  bool Ok = true;
  for (float B : Usual)
    Ok = checkBase(Checks, B) && Ok;
  Checks.report(Ok, "powf in a loop with usual bases (the versioned copy) "
                    "equals the host's within 4 ULP");
  Ok = true;
  for (float B : Special)
    Ok = checkBase(Checks, B) && Ok;
  Checks.report(Ok, "powf in a loop with bases 1, +-0, -1, +-inf, negative, "
                    "NaN (the original body) equals the host's");
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
