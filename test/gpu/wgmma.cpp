//===- wgmma.cpp - GPU suite: warpgroup MMA against a host GEMM -----------===//
//
// C = A * B + C0 with mstage::wgmma, M x N x K = 128 x 2N' x 192, where a
// block of two warpgroups computes 128 x N' (N' = 64, then 256: the
// accumulator's smallest and largest common shapes): A (row major) and B
// (column major) are copied into 128-byte swizzled shared tiles by plain
// stores, 64 k at a time; the first product overwrites an accumulator that
// holds NaNs (scale-d 0), the rest add to it. The inputs are small
// integers, so every product and sum is exact in float, and the GPU and the
// CPU back end must give the host's GEMM exactly. Needs an sm_90 GPU; on
// another one the JIT's error names the kernel and sm_90 (reported as a
// FAIL).
//
//===----------------------------------------------------------------------===//
#include "IntGemm.h"
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "wgmma";
constexpr unsigned M = 128, K = 192, Blocks = 2;

template <unsigned NT> int runShape() {
  namespace wgmma = mstage::wgmma;
  using mstage::half;
  constexpr unsigned N = NT * Blocks;
  const IntGemm G = intGemm(M, N, K);
  const std::vector<int> &A = G.A, &B = G.B;
  const std::vector<float> &Want = G.Want;
  std::vector<float> Out(G.C0.begin(), G.C0.end());
  std::vector<half> HA(M * K), HB(K * N); // B column major: (k, n) at n * K + k
  for (unsigned I = 0; I < M * K; ++I)
    HA[I] = half(float(A[I]));
  for (unsigned J = 0; J < K; ++J)
    for (unsigned C = 0; C < N; ++C)
      HB[C * K + J] = half(float(B[J * N + C]));

  constexpr unsigned ATile = M * wgmma::tile_k, BTile = NT * wgmma::tile_k;
  constexpr unsigned Shared = (ATile + BTile) * 2 + wgmma::tile_alignment;
  mstage::kernel(
      [](auto &HA, auto &HB, auto &Out) {
        char *Raw = mstage::dynamic_shared<char>().data();
        half *As = reinterpret_cast<half *>(
            Raw + (-reinterpret_cast<std::uintptr_t>(Raw) &
                   (wgmma::tile_alignment - 1)));
        half *Bs = As + ATile;
        unsigned Tid = mstage::Thread::get().index.x, Group = Tid / 128;
        unsigned Col0 = mstage::Block::get().index.x * NT;
        wgmma::accumulator<NT> Acc;
        for (float &X : Acc.x)
          X = std::nanf("");
        for (unsigned K0 = 0; K0 < K; K0 += wgmma::tile_k) {
          for (unsigned E = Tid; E < ATile; E += 256) {
            unsigned R = E / wgmma::tile_k, J = E % wgmma::tile_k;
            As[wgmma::swizzled_offset(R, J)] = HA[R * K + K0 + J];
          }
          for (unsigned E = Tid; E < BTile; E += 256) {
            unsigned C = E / wgmma::tile_k, J = E % wgmma::tile_k;
            Bs[wgmma::swizzled_offset(C, J)] = HB[(Col0 + C) * K + K0 + J];
          }
          wgmma::fence_shared_writes();
          mstage::Block::get().synchronize();
          wgmma::fence(Acc);
          for (unsigned J = 0; J < wgmma::tile_k; J += wgmma::mma_k)
            wgmma::mma_async(Acc, As + Group * 64 * wgmma::tile_k + J, Bs + J,
                             K0 + J > 0);
          wgmma::commit_group();
          wgmma::wait<0>(Acc);
          mstage::Block::get().synchronize(); // before the next copy
        }
        unsigned T = Tid % 128;
        for (unsigned I = 0; I < Acc.num_elements; ++I) {
          float &C =
              Out[(Group * 64 + Acc.row(T, I)) * N + Col0 + Acc.col(T, I)];
          C += Acc.x[I];
        }
      },
      Blocks, 256, Shared)(HA, HB, Out);
  for (unsigned I = 0; I < M * N; ++I)
    if (Out[I] != Want[I]) {
      std::printf("FAIL %s: N' = %u: element (%u, %u) is %g, expected %g\n",
                  Name, NT, I / N, I % N, Out[I], Want[I]);
      return 1;
    }
  return 0;
}

int run() {
  if (runShape<64>() || runShape<256>())
    return 1;
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
