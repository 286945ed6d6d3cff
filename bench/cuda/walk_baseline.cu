// nvcc's side of issue 34's walk benchmark (bench/AppsReference.h): one
// thread per (point, chunk) of an Nx x Nx/2 grid over the ellipse, Brownian
// walks from a per-thread PCG32 until they leave it, atomicAdd of the
// scores into the points' sums and of the steps into a 64-bit counter. The
// launches add to the same sums: after L launches each must be L times the
// CPU's.
//
//   walk_baseline [--reps R] [--n NX]
//
// Prints a CSV row walk,nvcc,...; on stderr checksum,walk,nvcc,NX,the sum
// of the points' sums after one launch.
#include "../AppsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

__global__ void walkKernel(WalkParams P, float *__restrict__ sum,
                           float *__restrict__ sumSq,
                           unsigned long long *__restrict__ steps) {
  const unsigned points = P.Nx * P.Ny;
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= points * P.Chunks)
    return;
  const WalkResult r = walkThread(P, g % points, g / points);
  if (r.Steps) {
    atomicAdd(&sum[g % points], r.Sum);
    atomicAdd(&sumSq[g % points], r.SumSq);
    atomicAdd(steps, (unsigned long long)r.Steps);
  }
}

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "walk_baseline [--reps R] [--n NX]");
  const size_t Nx = O.N ? O.N : kWalkNx;
  if (Nx < 2 || Nx > 8192)
    fail("walk: NX must be in [2, 8192]");
  const WalkParams P = walkParams(Nx);
  const WalkTotals Ref = walkCpu(P);
  const size_t Points = size_t(P.Nx) * P.Ny;
  float *Sum, *SumSq;
  unsigned long long *Steps;
  CUDA_CHECK(cudaMalloc(&Sum, Points * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&SumSq, Points * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&Steps, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(Sum, 0, Points * sizeof(float)));
  CUDA_CHECK(cudaMemset(SumSq, 0, Points * sizeof(float)));
  CUDA_CHECK(cudaMemset(Steps, 0, sizeof(unsigned long long)));
  const unsigned Grid = unsigned((walkThreads(P) + kAppBlock - 1) / kAppBlock);
  auto launch = [&] { walkKernel<<<Grid, kAppBlock>>>(P, Sum, SumSq, Steps); };
  std::vector<float> Got(Points);
  std::vector<unsigned long long> GotSteps(1);

  printHeader();
  launch();
  CUDA_CHECK(cudaGetLastError());
  download(Got, Sum);
  download(GotSteps, Steps);
  walkCheck(Ref, 1, Got, GotSteps, "nvcc");
  double Total = 0;
  for (float V : Got)
    Total += V;
  printChecksum("walk", "nvcc", Nx, decimal(Total));
  Timing T = timeLoops(O.Reps, kAppTrials, launch, [] {});
  download(Got, Sum);
  download(GotSteps, Steps);
  walkCheck(Ref, 1 + appLaunches(O.Reps), Got, GotSteps, "nvcc");
  printRow("walk", "nvcc", Nx, kAppBlock, Grid, T.medianMs, T.minMs, 0.0);
  return 0;
}
