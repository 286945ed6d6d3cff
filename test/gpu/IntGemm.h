//===- IntGemm.h - GPU suite: a GEMM of small integers, for tensor cores --===//
//
// The inputs and the host's result of C = A * B + C0 for the tensor-core
// programs (wmma, wgmma): A (M x K), B (K x N) and C0 (M x N), row major,
// are small integers, exact in half, bfloat16 and float, so every product
// and sum is exact and the GPU must give the host's result to the bit.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_TEST_GPU_INTGEMM_H
#define MSTAGE_TEST_GPU_INTGEMM_H

#include <vector>

struct IntGemm {
  std::vector<int> A, B, C0;
  std::vector<float> Want; // A * B + C0, row major
};

inline int intGemmValue(unsigned I, unsigned Salt) {
  return int((I * 2654435761u + Salt * 40503u) >> 13) % 9 - 4;
}

inline IntGemm intGemm(unsigned M, unsigned N, unsigned K) {
  IntGemm G;
  G.A.resize(M * K);
  G.B.resize(K * N);
  G.C0.resize(M * N);
  G.Want.resize(M * N);
  for (unsigned I = 0; I < M * K; ++I)
    G.A[I] = intGemmValue(I, 1);
  for (unsigned I = 0; I < K * N; ++I)
    G.B[I] = intGemmValue(I, 2);
  for (unsigned I = 0; I < M * N; ++I)
    G.C0[I] = intGemmValue(I, 3) * 10;
  for (unsigned R = 0; R < M; ++R)
    for (unsigned C = 0; C < N; ++C) {
      int Sum = G.C0[R * N + C];
      for (unsigned J = 0; J < K; ++J)
        Sum += G.A[R * K + J] * G.B[J * N + C];
      G.Want[R * N + C] = float(Sum);
    }
  return G;
}

#endif
