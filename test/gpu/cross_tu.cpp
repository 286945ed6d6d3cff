//===- cross_tu.cpp - GPU suite: kernels calling another file's functions -===//
//
// The kernels call blurAt() and horner(), defined in cross_tu_lib.cpp, a
// translation unit of their own: the runtime links their device code into
// each kernel. The blur radius is staged (folded through the callee); the
// polynomial's degree is not. Both are checked against the same functions
// called on the host.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"
#include "cross_tu.h"

#include <mstage.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "cross_tu";
constexpr int N = 1 << 20;
constexpr unsigned BlockSize = 256;

int run() {
  int Executes = mstage_rt_executes();
  if (Executes < 0) {
    std::printf("FAIL %s: no backend: %s\n", Name, mstage_rt_last_error());
    return 1;
  }
  std::mt19937 Gen(20261123);
  std::uniform_real_distribution<float> U(-1.0f, 1.0f);
  std::vector<float> In(N), Blurred(N);
  std::vector<double> X(N), Poly(N);
  for (int I = 0; I < N; ++I) {
    In[I] = U(Gen);
    X[I] = U(Gen);
  }
  const std::vector<double> Coeffs = {0.5, -1.25, 2.0, 0.75, -0.125};
  const int Degree = int(Coeffs.size()) - 1;
  unsigned Blocks = (N + BlockSize - 1) / BlockSize;

  for (int Radius : {1, 4}) {
    mstage::kernel(
        [=](const auto &In, auto &Out) {
          int I = int(mstage::Thread::get().global.x);
          if (I < N)
            Out[I] = blurAt(In.data(), N, I, mstage::stage(Radius));
        },
        Blocks, BlockSize)(In, Blurred);
    if (Executes == 0)
      continue;
    for (int I = 0; I < N; ++I) {
      float Want = blurAt(In.data(), N, I, Radius);
      if (!(std::fabs(Blurred[I] - Want) <= 1e-5f * (1 + std::fabs(Want)))) {
        std::printf("FAIL %s: blur radius %d at %d: %.9g, expected %.9g\n",
                    Name, Radius, I, double(Blurred[I]), double(Want));
        return 1;
      }
    }
  }

  mstage::kernel(
      [=](const auto &X, const auto &C, auto &Out) {
        int I = int(mstage::Thread::get().global.x);
        if (I < N)
          Out[I] = horner(X[I], C.data(), Degree);
      },
      Blocks, BlockSize)(X, Coeffs, Poly);
  if (Executes == 0) {
    std::printf("SKIP %s: PTX-only mode, result not checked\n", Name);
    return 0;
  }
  for (int I = 0; I < N; ++I) {
    double Want = horner(X[I], Coeffs.data(), Degree);
    if (!(std::fabs(Poly[I] - Want) <= 1e-12 * (1 + std::fabs(Want)))) {
      std::printf("FAIL %s: horner at %d: %.17g, expected %.17g\n", Name, I,
                  Poly[I], Want);
      return 1;
    }
  }
  std::printf("PASS %s: n=%d, blur radius 1 and 4 (staged), degree-%d "
              "polynomial, against the host\n",
              Name, N, Degree);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
