//===- wmma.cpp - GPU suite: tensor-core GEMMs against a host GEMM --------===//
//
// C = A * B + C0 with mstage::wmma, one warp per 16 x 16 tile of C, for
// M x N x K = 64 x 48 x 80: with half inputs (A row major, B column major,
// C loaded and stored row major), and with bfloat16 inputs (A column major,
// B row major, C0 loaded column major and C stored column major, scaled by 2
// element-wise between the mma and the store). The inputs are small integers,
// so every product and sum is exact in float, and the GPU and the CPU back
// end must give the host's GEMM exactly.
//
//===----------------------------------------------------------------------===//
#include "IntGemm.h"
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "wmma";
constexpr unsigned M = 64, N = 48, K = 80;

template <class T> int check(const char *What, const std::vector<float> &Got,
                             const std::vector<float> &Want) {
  for (unsigned I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I]) {
      std::printf("FAIL %s: %s: element %u is %g, expected %g\n", Name, What, I,
                  Got[I], Want[I]);
      return 1;
    }
  return 0;
}

int run() {
  namespace wmma = mstage::wmma;
  using mstage::bfloat16;
  using mstage::half;
  // Logical A (M x K), B (K x N), C0 (M x N) as ints.
  const IntGemm G = intGemm(M, N, K);
  const std::vector<int> &A = G.A, &B = G.B, &C0 = G.C0;
  const std::vector<float> &Want = G.Want; // row major

  // Half: A row major, B column major (element (k, n) at n * K + k).
  std::vector<half> HA(M * K), HB(K * N);
  for (unsigned R = 0; R < M; ++R)
    for (unsigned J = 0; J < K; ++J)
      HA[R * K + J] = half(float(A[R * K + J]));
  for (unsigned J = 0; J < K; ++J)
    for (unsigned C = 0; C < N; ++C)
      HB[C * K + J] = half(float(B[J * N + C]));
  std::vector<float> Out(M * N);
  for (unsigned I = 0; I < M * N; ++I)
    Out[I] = float(C0[I]);
  mstage::kernel(
      [](auto &HA, auto &HB, auto &Out) {
        unsigned Row = mstage::Block::get().index.y * 16;
        unsigned Col = mstage::Block::get().index.x * 16;
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> FA;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> FB;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> Acc;
        wmma::load_matrix_sync(Acc, &Out[Row * N + Col], N,
                               wmma::mem_row_major);
        for (unsigned J = 0; J < K; J += 16) {
          wmma::load_matrix_sync(FA, &HA[Row * K + J], K);
          wmma::load_matrix_sync(FB, &HB[Col * K + J], K);
          wmma::mma_sync(Acc, FA, FB, Acc);
        }
        wmma::store_matrix_sync(&Out[Row * N + Col], Acc, N,
                                wmma::mem_row_major);
      },
      mstage::dim3(N / 16, M / 16), 32)(HA, HB, Out);
  if (check<half>("half", Out, Want))
    return 1;

  // bfloat16: A column major (element (m, k) at k * M + m), B row major;
  // C0 and the result column major (element (m, n) at n * M + m), times 2.
  std::vector<bfloat16> BA(M * K), BB(K * N);
  for (unsigned R = 0; R < M; ++R)
    for (unsigned J = 0; J < K; ++J)
      BA[J * M + R] = bfloat16(float(A[R * K + J]));
  for (unsigned I = 0; I < K * N; ++I)
    BB[I] = bfloat16(float(B[I]));
  std::vector<float> ColOut(M * N), ColWant(M * N);
  for (unsigned R = 0; R < M; ++R)
    for (unsigned C = 0; C < N; ++C) {
      ColOut[C * M + R] = float(C0[R * N + C]);
      ColWant[C * M + R] = 2 * Want[R * N + C];
    }
  mstage::kernel(
      [](auto &BA, auto &BB, auto &ColOut) {
        unsigned Row = mstage::Block::get().index.y * 16;
        unsigned Col = mstage::Block::get().index.x * 16;
        wmma::fragment<wmma::matrix_a, 16, 16, 16, bfloat16, wmma::col_major>
            FA;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, bfloat16, wmma::row_major>
            FB;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> Acc;
        wmma::load_matrix_sync(Acc, &ColOut[Col * M + Row], M,
                               wmma::mem_col_major);
        for (unsigned J = 0; J < K; J += 16) {
          wmma::load_matrix_sync(FA, &BA[J * M + Row], M);
          wmma::load_matrix_sync(FB, &BB[J * N + Col], N);
          wmma::mma_sync(Acc, FA, FB, Acc);
        }
        for (int I = 0; I < Acc.num_elements; ++I)
          Acc.x[I] *= 2.0f;
        wmma::store_matrix_sync(&ColOut[Col * M + Row], Acc, M,
                                wmma::mem_col_major);
      },
      mstage::dim3(N / 16, M / 16), 32)(BA, BB, ColOut);
  if (check<bfloat16>("bfloat16", ColOut, ColWant))
    return 1;
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
