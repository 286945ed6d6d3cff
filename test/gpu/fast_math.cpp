//===- fast_math.cpp - GPU suite: per-kernel fast math against the CPU -----===//
//
// One kernel body, launched twice: as is (IEEE) and with Kernel::fast_math().
//  - IEEE: x / y and sqrt(x) equal the host's exactly (both are correctly
//    rounded), and a product that is a denormal keeps its value.
//  - Fast: x / y within 2 ULP and sqrt(x) within a relative 2^-21 (PTX's
//    div.approx and sqrt.approx bounds, with slack), sin(x) within 2^-20
//    absolute on [-pi, pi], exp(x) within a relative 2^-16 on [-10, 10]
//    (CUDA's __expf bound is 2 + 1.16|x| ULP), and the denormal product is
//    flushed to 0, as nvcc's --use_fast_math does. On the CPU back end both
//    kernels run the host's IEEE code, so the fast one is exact too and keeps
//    the denormal: the bounds are checked, the flush is not.
//  - Double precision is IEEE in both kernels: d / e equals the host's.
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

constexpr const char *Name = "fast_math";
constexpr unsigned N = 4096, Block = 128;
constexpr float Pi = 3.14159265f;

struct Inputs {
  std::vector<float> X, Y, Angle, Power, Tiny;
  std::vector<double> D, E;
};

Inputs makeInputs() {
  Inputs In;
  for (unsigned I = 0; I < N; ++I) {
    float U = float(I) / N; // [0, 1)
    In.X.push_back(1e-3f + U * 1000.0f);
    In.Y.push_back(0.5f + float((I * 37) % N) / N * 50.0f);
    In.Angle.push_back((2 * U - 1) * Pi);
    In.Power.push_back((2 * U - 1) * 10.0f);
    In.Tiny.push_back(1e-38f * (1 + U)); // normal; times 0.01 is denormal
    In.D.push_back(1.0 + U * 1e6);
    In.E.push_back(3.0 + double((I * 53) % N));
  }
  return In;
}

struct Outputs {
  std::vector<float> Div, Sqrt, Sin, Exp, Denormal;
  std::vector<double> DivD;
  Outputs()
      : Div(N), Sqrt(N), Sin(N), Exp(N), Denormal(N), DivD(N) {}
};

template <class K> Outputs launch(K Kern, const Inputs &In) {
  Outputs Out;
  float Scale = 0.01f; // a launch argument, so nothing folds the product
  Kern(In.X, In.Y, In.Angle, In.Power, In.Tiny, In.D, In.E, Scale, Out.Div,
       Out.Sqrt, Out.Sin, Out.Exp, Out.Denormal, Out.DivD);
  return Out;
}

auto makeKernel() {
  return mstage::kernel(
      [](const auto &X, const auto &Y, const auto &Angle, const auto &Power,
         const auto &Tiny, const auto &D, const auto &E, float Scale,
         auto &Div, auto &Sqrt, auto &Sin, auto &Exp, auto &Denormal,
         auto &DivD) {
        unsigned I = mstage::Thread::get().global.x;
        Div[I] = X[I] / Y[I];
        Sqrt[I] = std::sqrt(X[I]);
        Sin[I] = std::sin(Angle[I]);
        Exp[I] = std::exp(Power[I]);
        Denormal[I] = Tiny[I] * Scale;
        DivD[I] = D[I] / E[I];
      },
      N / Block, Block);
}

int32_t ulpDistance(float A, float B) {
  int32_t IA, IB;
  std::memcpy(&IA, &A, 4);
  std::memcpy(&IB, &B, 4);
  if ((IA < 0) != (IB < 0))
    return A == B ? 0 : INT32_MAX;
  return IA > IB ? IA - IB : IB - IA;
}

bool check(bool Ok, const char *Kernel, const char *What, unsigned I,
           double Got, double Want) {
  if (!Ok)
    std::printf("FAIL %s: %s kernel: %s[%u] = %.9g, host %.9g\n", Name, Kernel,
                What, I, Got, Want);
  return Ok;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  Inputs In = makeInputs();
  Outputs Ieee = launch(makeKernel(), In);
  // Approximate by design: not for MSTAGE_CHECK=cpu's comparison.
  Outputs Fast = launch(makeKernel().fast_math().check_on_cpu(false), In);
  bool Cpu = onCpu();
  for (unsigned I = 0; I < N; ++I) {
    float Div = In.X[I] / In.Y[I], Sqrt = std::sqrt(In.X[I]);
    float Sin = std::sin(In.Angle[I]), Exp = std::exp(In.Power[I]);
    float Denormal = In.Tiny[I] * 0.01f;
    double DivD = In.D[I] / In.E[I];
    if (!check(Ieee.Div[I] == Div, "IEEE", "x / y", I, Ieee.Div[I], Div) ||
        !check(Ieee.Sqrt[I] == Sqrt, "IEEE", "sqrt", I, Ieee.Sqrt[I], Sqrt) ||
        !check(Ieee.Denormal[I] == Denormal && Denormal != 0, "IEEE",
               "denormal product", I, Ieee.Denormal[I], Denormal) ||
        !check(Ieee.DivD[I] == DivD, "IEEE", "double d / e", I, Ieee.DivD[I],
               DivD) ||
        !check(ulpDistance(Fast.Div[I], Div) <= 2, "fast", "x / y", I,
               Fast.Div[I], Div) ||
        !check(std::fabs(Fast.Sqrt[I] - Sqrt) <= std::ldexp(Sqrt, -21),
               "fast", "sqrt", I, Fast.Sqrt[I], Sqrt) ||
        !check(std::fabs(Fast.Sin[I] - Sin) <= std::ldexp(1.0f, -20), "fast",
               "sin", I, Fast.Sin[I], Sin) ||
        !check(std::fabs(Fast.Exp[I] - Exp) <= std::ldexp(Exp, -16), "fast",
               "exp", I, Fast.Exp[I], Exp) ||
        !check(Fast.Denormal[I] == (Cpu ? Denormal : 0.0f), "fast",
               Cpu ? "denormal product (host code)"
                   : "denormal product (flushed)",
               I, Fast.Denormal[I], Cpu ? Denormal : 0.0) ||
        !check(Fast.DivD[I] == DivD, "fast", "double d / e", I, Fast.DivD[I],
               DivD))
      return 1;
  }
  std::printf("PASS %s: %u inputs; IEEE kernel exact (div, sqrt, denormals), "
              "fast kernel within approx bounds %s, double IEEE in both\n",
              Name, N,
              Cpu ? "(CPU back end: host IEEE code, denormals kept)"
                  : "with denormals flushed");
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
