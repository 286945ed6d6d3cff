//===- cross_tu_lib.cpp - GPU suite: device code called from cross_tu.cpp -===//
//
// Compiled as its own translation unit: the kernels of cross_tu.cpp reach
// these functions only through the runtime's device link.
//
//===----------------------------------------------------------------------===//
#include "cross_tu.h"

static int clampIndex(int I, int N) { return I < 0 ? 0 : I >= N ? N - 1 : I; }

float blurAt(const float *In, int N, int I, int Radius) {
  float Sum = 0;
  for (int D = -Radius; D <= Radius; ++D)
    Sum += In[clampIndex(I + D, N)];
  return Sum / float(2 * Radius + 1);
}

double horner(double X, const double *Coeffs, int Degree) {
  double R = Coeffs[Degree];
  for (int K = Degree - 1; K >= 0; --K)
    R = R * X + Coeffs[K];
  return R;
}
