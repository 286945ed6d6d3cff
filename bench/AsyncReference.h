// What bench/cuda/async_baselines.cu (nvcc) and bench/mstage_async.cpp
// (mstage) share, so that both sides of the asynchronous-API benchmarks do
// the same work and are checked the same way: the sizes, the CPU reference of
// the heat equation, the checksum of its final field, the summary of a
// list of times, the clock, the CSV row and the failure. Plain C++17: nvcc's
// host compiler and mstage++ both read it.
#ifndef MSTAGE_BENCH_ASYNCREFERENCE_H
#define MSTAGE_BENCH_ASYNCREFERENCE_H

#include "Checksum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace asyncbench {

// Back-to-back tiny launches: 256 ints, grid 1, block 256; each launch adds
// one to every element, so the count of launches that ran can be checked.
constexpr unsigned kTinyN = 256;
constexpr int kTinyLaunches = 10000;
constexpr int kGraphKernels = 100; // kernels in one graph; replayed 100 times

// The heat equation: every kHeatCheckEvery steps (and after the last) the
// largest change of the step is computed on the device and read back, as a
// convergence test would; the loop always runs all its steps, so that both
// sides do the same work.
constexpr int kHeatCheckEvery = 100;
constexpr unsigned kHeatBlockX = 32, kHeatBlockY = 8; // interior kernel
constexpr unsigned kHeatThreads = 256; // boundary and residual kernels
constexpr unsigned kHeatResidualMaxGrid = 1024;

// Host-data transfers: y += x on 2^20 floats.
constexpr std::size_t kTransferN = std::size_t(1) << 20;
// Values on a coarse grid, so that y0 + k*x stays exact in float for the
// few hundred iterations of a run: the check is an equality.
inline float transferX(std::size_t I) { return float(I % 5) * 0.25f; }
inline float transferY0(std::size_t I) { return float(I % 3); }

// The field before the first step: a hot left edge (1.0f), 0 elsewhere.
inline std::vector<float> heatInitial(std::size_t N) {
  std::vector<float> U(N * N, 0.0f);
  for (std::size_t I = 0; I < N; ++I)
    U[I * N] = 1.0f;
  return U;
}

// The blocks of the residual kernel: a grid-stride loop over the field.
inline unsigned heatResidualGrid(std::size_t N) {
  std::size_t Blocks = (N * N + kHeatThreads - 1) / kHeatThreads;
  return unsigned(std::min<std::size_t>(Blocks, kHeatResidualMaxGrid));
}

// One step on the CPU, with the device kernels' arithmetic: the interior from
// Old, then the boundary of New.
inline void heatStepCpu(std::size_t N, const std::vector<float> &Old,
                        std::vector<float> &New) {
  for (std::size_t I = 1; I + 1 < N; ++I)
    for (std::size_t J = 1; J + 1 < N; ++J)
      New[I * N + J] = 0.25f * (Old[(I - 1) * N + J] + Old[(I + 1) * N + J] +
                                Old[I * N + J + 1] + Old[I * N + J - 1]);
  for (std::size_t T = 0; T < N; ++T) {
    New[T * N] = 1.0f;
    New[T * N + N - 1] = 0.0f;
    if (T > 0) {
      New[T] = 0.0f;
      New[(N - 1) * N + T] = 0.0f;
    }
  }
}

inline float heatResidualCpu(const std::vector<float> &A,
                             const std::vector<float> &B) {
  float M = 0.0f;
  for (std::size_t I = 0; I < A.size(); ++I)
    M = std::max(M, std::fabs(A[I] - B[I]));
  return M;
}

// Runs Steps steps from U on the CPU as the device loops do; U is the final
// field. Returns the last residual read back.
inline float heatReference(std::size_t N, int Steps, std::vector<float> &U) {
  std::vector<float> New = U;
  float Residual = -1.0f;
  for (int S = 1; S <= Steps; ++S) {
    heatStepCpu(N, U, New);
    if (S % kHeatCheckEvery == 0 || S == Steps)
      Residual = heatResidualCpu(New, U);
    U.swap(New);
  }
  return Residual;
}

// FNV-1a over the bits of the field: equal fields, equal checksums.
inline std::uint64_t fieldChecksum(const float *U, std::size_t N) {
  return ports::fnv1a(U, N * sizeof(float));
}

// Index of the first element where the two fields' bits differ, or -1.
inline long long firstBitDifference(const float *A, const float *B,
                                    std::size_t N) {
  for (std::size_t I = 0; I < N; ++I)
    if (std::memcmp(&A[I], &B[I], sizeof(float)))
      return (long long)I;
  return -1;
}

struct Summary {
  double Median, Min;
};

inline Summary summarize(std::vector<double> Ms) {
  std::sort(Ms.begin(), Ms.end());
  std::size_t K = Ms.size();
  double Median = K % 2 ? Ms[K / 2] : 0.5 * (Ms[K / 2 - 1] + Ms[K / 2]);
  return {Median, Ms.front()};
}

// The host's clock, in ms.
inline double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

// A wrong result: FAIL on stderr, exit status 1.
[[noreturn]] inline void fail(const std::string &What) {
  std::fprintf(stderr, "FAIL: %s\n", What.c_str());
  std::exit(1);
}

// One CSV row: benchmark,variant,n,block,grid,median_ms,min_ms,gbps.
inline void printRow(const char *Benchmark, const char *Variant, std::size_t N,
                     unsigned Block, unsigned Grid, Summary T, double Gbps) {
  std::printf("%s,%s,%zu,%u,%u,%.6f,%.6f,%.3f\n", Benchmark, Variant, N, Block,
              Grid, T.Median, T.Min, Gbps);
  std::fflush(stdout);
}

} // namespace asyncbench

#endif
