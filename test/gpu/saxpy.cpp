//===- saxpy.cpp - GPU suite: y = a*x + y, called and through async -------===//
//
// n is not a multiple of the block, so the last block's bounds check matters.
// The same kernel is launched twice: by calling it, and through
// mstage::async with another a. Both results are checked against the CPU.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "saxpy";
constexpr std::size_t N = 10'000'019;
constexpr unsigned BlockSize = 256;
constexpr double RelTolerance = 1e-6;

// Non-zero values of magnitude in [0.5, 2), so that a*x never vanishes and an
// element the kernel left alone cannot pass for a written one.
std::vector<float> randomNonZero(std::mt19937 &Gen, std::size_t Count) {
  std::uniform_real_distribution<float> Magnitude(0.5f, 2.0f);
  std::bernoulli_distribution Negative(0.5);
  std::vector<float> V(Count);
  for (float &E : V)
    E = Negative(Gen) ? -Magnitude(Gen) : Magnitude(Gen);
  return V;
}

// Compares Got with a*X + Y0, relative to the size of the terms (the GPU may
// fuse the multiply and the add). Prints FAIL and returns false at the first
// mismatch.
bool check(const char *How, float A, const std::vector<float> &X,
           const std::vector<float> &Y0, const std::vector<float> &Got,
           double &MaxRelErr) {
  for (std::size_t I = 0; I < N; ++I) {
    double Ref = double(A) * X[I] + Y0[I];
    double Scale = std::fabs(double(A) * X[I]) + std::fabs(Y0[I]);
    double Err = std::fabs(double(Got[I]) - Ref);
    if (!(Err <= RelTolerance * Scale)) {
      std::printf("FAIL %s: %s launch (a=%g): y[%zu] = %.9g, expected %.9g "
                  "(x=%.9g, y0=%.9g)\n",
                  Name, How, double(A), I, double(Got[I]), Ref, double(X[I]),
                  double(Y0[I]));
      return false;
    }
    if (Scale > 0 && Err / Scale > MaxRelErr)
      MaxRelErr = Err / Scale;
  }
  return true;
}

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }

  std::mt19937 Gen(20261121);
  const std::vector<float> X = randomNonZero(Gen, N);
  const std::vector<float> Y0 = randomNonZero(Gen, N);
  const float A1 = 2.5f, A2 = -1.75f;

  std::size_t Blocks = (N + BlockSize - 1) / BlockSize;
  auto Saxpy = mstage::kernel(
      [](float A, const auto &X, auto &Y) {
        std::size_t I = mstage::Thread::get().global.x;
        if (I < X.size())
          Y[I] = A * X[I] + Y[I];
      },
      Blocks, BlockSize);

  std::vector<float> Y1 = Y0;
  Saxpy(A1, X, Y1);

  std::vector<float> Y2 = Y0;
  float A2Arg = A2;
  mstage::async(mstage::launch::kernel, Saxpy, A2Arg, X, Y2).get();

  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }

  double MaxRelErr = 0;
  if (!check("called", A1, X, Y0, Y1, MaxRelErr) ||
      !check("async", A2, X, Y0, Y2, MaxRelErr))
    return 1;
  std::printf("PASS %s: n=%zu, block %u, a=%g (called) and a=%g (async), "
              "max relative error %.3g\n",
              Name, N, BlockSize, double(A1), double(A2), MaxRelErr);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
