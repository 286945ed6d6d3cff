// nvcc's side of jit_cold's heat figure: the first STEPS steps of the 2-D
// heat equation on N x N floats in a fresh process (module loading and all),
// with the same four kernels as bench/jit_cold.cpp (N a run-time argument
// here, staged there), after the context and the buffers are made.
//
//   heat_cold N STEPS
//
// Prints: jit-cold,nvcc,heat-N-first-STEPS-steps,ms. The field is checked
// bit for bit against the CPU (bench/AsyncReference.h).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../AsyncReference.h"
#include "BenchTiming.cuh"

using namespace asyncbench;

__global__ void interior(const float *uold, float *unew, size_t n) {
  size_t i = blockIdx.y * size_t(blockDim.y) + threadIdx.y;
  size_t j = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n)
    unew[i * n + j] = 0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                               uold[i * n + j + 1] + uold[i * n + j - 1]);
}

__global__ void columns(float *u, size_t n) {
  size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t < n) {
    u[t * n] = 1.0f;
    u[t * n + n - 1] = 0.0f;
  }
}

__global__ void rows(float *u, size_t n) {
  size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t > 0 && t < n) {
    u[t] = 0.0f;
    u[(n - 1) * n + t] = 0.0f;
  }
}

__global__ void residual(const float *a, const float *b, size_t cells,
                         unsigned *result) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  float m = 0.0f;
  for (size_t k = blockIdx.x * size_t(blockDim.x) + threadIdx.x; k < cells;
       k += stride)
    m = fmaxf(m, fabsf(a[k] - b[k]));
  atomicMax(result, __float_as_uint(m));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: heat_cold N STEPS\n");
    return 1;
  }
  const size_t N = std::strtoul(argv[1], nullptr, 10);
  const int Steps = std::atoi(argv[2]);
  const size_t Cells = N * N;
  const std::vector<float> Initial = heatInitial(N);
  float *D[2];
  unsigned *DResidual;
  for (float *&P : D) {
    CUDA_CHECK(cudaMalloc(&P, Cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(P, Initial.data(), Cells * sizeof(float),
                          cudaMemcpyHostToDevice));
  }
  CUDA_CHECK(cudaMalloc(&DResidual, sizeof(unsigned)));
  cudaStream_t S;
  CUDA_CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  CUDA_CHECK(cudaDeviceSynchronize());
  const dim3 Block(kHeatBlockX, kHeatBlockY);
  const dim3 Grid(unsigned((N + kHeatBlockX - 1) / kHeatBlockX),
                  unsigned((N + kHeatBlockY - 1) / kHeatBlockY));
  const unsigned Edge = unsigned((N + kHeatThreads - 1) / kHeatThreads);

  // JIT_COLD_STEPS=1: when each step's launches returned (jit_cold's too).
  const bool StepTimes = std::getenv("JIT_COLD_STEPS") != nullptr;
  std::vector<double> Returned;
  Returned.reserve(StepTimes ? Steps : 0);
  auto T0 = std::chrono::steady_clock::now();
  int Cur = 0;
  float Res = -1.0f;
  for (int Step = 1; Step <= Steps; ++Step) {
    interior<<<Grid, Block, 0, S>>>(D[Cur], D[1 - Cur], N);
    columns<<<Edge, kHeatThreads, 0, S>>>(D[1 - Cur], N);
    rows<<<Edge, kHeatThreads, 0, S>>>(D[1 - Cur], N);
    if (Step % kHeatCheckEvery == 0 || Step == Steps) {
      unsigned Bits = 0;
      CUDA_CHECK(cudaMemsetAsync(DResidual, 0, sizeof(unsigned), S));
      residual<<<heatResidualGrid(N), kHeatThreads, 0, S>>>(
          D[1 - Cur], D[Cur], Cells, DResidual);
      CUDA_CHECK(cudaMemcpyAsync(&Bits, DResidual, sizeof Bits,
                                 cudaMemcpyDeviceToHost, S));
      CUDA_CHECK(cudaStreamSynchronize(S));
      std::memcpy(&Res, &Bits, sizeof Res);
    }
    Cur = 1 - Cur;
    if (StepTimes)
      Returned.push_back(std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - T0)
                             .count());
  }
  CUDA_CHECK(cudaStreamSynchronize(S));
  CUDA_CHECK(cudaGetLastError());
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count();

  for (size_t I = 0; I < Returned.size(); ++I)
    std::fprintf(stderr, "# step %zu returned %.3f ms\n", I + 1, Returned[I]);

  std::vector<float> Field(Cells), Expected = Initial;
  CUDA_CHECK(cudaMemcpy(Field.data(), D[Cur], Cells * sizeof(float),
                        cudaMemcpyDeviceToHost));
  float ExpectedRes = heatReference(N, Steps, Expected);
  long long At = firstBitDifference(Field.data(), Expected.data(), Cells);
  if (At >= 0 || Res != ExpectedRes) {
    std::fprintf(stderr, "FAIL: heat_cold %zu: differs from the CPU\n", N);
    return 1;
  }
  std::printf("jit-cold,nvcc,heat-%zu-first-%d-steps,%.4f\n", N, Steps, Ms);
  std::fprintf(stderr, "# heat %zu (nvcc): first %d steps %.3f ms\n", N, Steps,
               Ms);
  return 0;
}
