//===- AdamReference.h - issue 34's Adam step, both sides -----------------===//
//
// What bench/cuda/adam_baseline.cu and bench/mstage_adam.cpp share: the
// Adam step of HeCBench's adam-cuda (an optimizer's update of the
// parameters p and the moments m and v from the gradients g, TimeSteps
// steps per launch, each with powf of both betas at the step), its inputs,
// the CPU reference and the check. One thread per element in a grid-stride
// loop, as HeCBench's kernel; the per-element work is adamElement, compiled
// by nvcc as __host__ __device__, by mstage++ as device code of the kernel
// and by the host compiler for the reference.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_BENCH_ADAMREFERENCE_H
#define MSTAGE_BENCH_ADAMREFERENCE_H

#include "AppsReference.h"

namespace ports {

constexpr std::size_t kAdamN = std::size_t(1) << 20; // elements
constexpr int kAdamTimeSteps = 100;                  // steps per launch
// The reference checks every kAdamCheckStride-th element: all of them would
// take the host seconds (2 powf a step).
constexpr std::size_t kAdamCheckStride = 61;

// HeCBench's constants; Mode 0 takes the square root of v + eps, mode 1
// adds eps to the root.
struct AdamParams {
  float Beta1, Beta2, Eps, GradScale, StepSize, Decay;
  int TimeSteps, Mode;
};

inline AdamParams adamParams(int TimeSteps) {
  return {0.9f, 0.999f, 1e-8f, 256.0f, 1e-3f, 0.5f, TimeSteps, 0};
}

struct AdamState {
  std::vector<float> P, M, V, G;
};

// HeCBench's inputs were rand() / RAND_MAX: values in [0, 1) here too.
inline AdamState adamInputs(std::size_t N) {
  AdamState S;
  auto fill = [N](std::vector<float> &X, std::uint64_t Seed) {
    X.resize(N);
    for (std::size_t I = 0; I < N; ++I)
      X[I] = float(mix(Seed << 40 | I) >> 8) * (1.0f / 16777216.0f);
  };
  fill(S.P, 1);
  fill(S.M, 2);
  fill(S.V, 3);
  fill(S.G, 4);
  return S;
}

// Element J's TimeSteps steps, as HeCBench's kernel body.
APPS_HD void adamElement(float *P, float *M, float *V, const float *G,
                         const AdamParams &A, std::size_t J) {
  for (int T = 1; T <= A.TimeSteps; T++) {
    const float ScaledGrad = G[J] / A.GradScale;
    M[J] = A.Beta1 * M[J] + (1.0f - A.Beta1) * ScaledGrad;
    V[J] = A.Beta2 * V[J] + (1.0f - A.Beta2) * ScaledGrad * ScaledGrad;
    const float MCorrected = M[J] / (1.0f - powf(A.Beta1, float(T)));
    const float VCorrected = V[J] / (1.0f - powf(A.Beta2, float(T)));
    float Denom;
    if (A.Mode == 0)
      Denom = sqrtf(VCorrected + A.Eps);
    else
      Denom = sqrtf(VCorrected) + A.Eps;
    const float Update = MCorrected / Denom + A.Decay * P[J];
    P[J] -= A.StepSize * Update;
  }
}

// The sum of the parameters, the checksum line's value.
inline double adamSum(const std::vector<float> &P) {
  double S = 0;
  for (float X : P)
    S += X;
  return S;
}

// After one launch from In: every kAdamCheckStride-th element of P, M and V
// within 1e-4 of the host's (powf's last bits differ between libraries,
// and a step feeds the next).
inline void adamCheck(const AdamState &In, const AdamParams &A,
                      const std::vector<float> &P, const std::vector<float> &M,
                      const std::vector<float> &V, const std::string &Variant) {
  for (std::size_t J = 0; J < In.P.size(); J += kAdamCheckStride) {
    float Pr = In.P[J], Mr = In.M[J], Vr = In.V[J];
    adamElement(&Pr, &Mr, &Vr, &In.G[J], A, 0);
    const float Got[3] = {P[J], M[J], V[J]}, Want[3] = {Pr, Mr, Vr};
    for (int K = 0; K < 3; ++K)
      if (!(relDiff(Got[K], Want[K], 1e-3) <= 1e-4))
        fail("adam " + Variant + ": element " + std::to_string(J) + " " +
             "pmv"[K] + " " + decimal(Got[K]) + ", expected " +
             decimal(Want[K]));
  }
}

} // namespace ports

#endif
