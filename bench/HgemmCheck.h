// The inputs and the check of issue 37's tensor-core GEMMs
// (bench/mstage_wmma_gemm.cpp, bench/mstage_wgmma_gemm.cpp): N x N half
// matrices A (row major) and B (column major) of values in [-1, 1) in steps
// of 1/64, exact in half, the same as bench/cuda/hgemm_baseline.cu's; C (row
// major) is checked against the host's GEMM in double, every element for N
// <= 512, else 512 sampled ones, within a relative 1e-3.
#ifndef MSTAGE_BENCH_HGEMMCHECK_H
#define MSTAGE_BENCH_HGEMMCHECK_H

#include "PortsReference.h"

#include <mstage/half.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace ports {

struct HgemmInputs {
  unsigned N;
  std::vector<mstage::half> A, B;

  explicit HgemmInputs(unsigned N)
      : N(N), A(std::size_t(N) * N), B(std::size_t(N) * N) {
    const std::size_t NN = A.size();
    for (std::size_t I = 0; I < NN; ++I) {
      A[I] = mstage::half(float(int(mix(I) % 128) - 64) / 64.0f);
      B[I] = mstage::half(float(int(mix(I + NN) % 128) - 64) / 64.0f);
    }
  }

  // Ends the program (fail) at the first element of C that is wrong.
  void check(const char *What, const std::vector<float> &C) const {
    const std::size_t NN = A.size();
    const std::size_t Checks = N <= 512 ? NN : 512;
    for (std::size_t S = 0; S < Checks; ++S) {
      std::size_t E = N <= 512 ? S : mix(S + 7) % NN;
      std::size_t R = E / N, Col = E % N;
      double Want = 0;
      for (unsigned J = 0; J < N; ++J)
        Want += double(float(A[R * N + J])) * double(float(B[Col * N + J]));
      if (!(std::fabs(C[E] - Want) <= 1e-3 * (std::fabs(Want) + 1.0)))
        fail(std::string(What) + ": C(" + std::to_string(R) + ", " +
             std::to_string(Col) + ") is " + std::to_string(C[E]) +
             ", the host's " + std::to_string(Want));
    }
  }
};

} // namespace ports

#endif
