// nvcc's side of bench/mstage_replay.cpp's "distinct": tiny launches that
// never repeat, as <<<>>> launches (issue 36's "tiny launches without
// repetition: <= 1.0x <<<>>>").
//
//   replay_baseline [--reps N] [--launches L]
//
// tiny-distinct  k<<<1, 256>>>(v, i) with i the launch's number, adding i to
//                each of 256 ints; L (default 10,000) launches, then one
//                cudaStreamSynchronize; per launch, median and min of N
//                (default 7) runs after a warm-up; the elements checked
//                after each run (the sum of the i, as int arithmetic wraps).
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
// (variant cuda). A wrong result prints FAIL on stderr and exits with 1.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../AsyncReference.h"
#include "BenchTiming.cuh"

using namespace asyncbench;

__global__ void addKernel(int *v, int add) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] + add;
}

int main(int Argc, char **Argv) {
  int Reps = 7, Launches = 10000;
  for (int A = 1; A + 1 < Argc; A += 2) {
    std::string Arg = Argv[A];
    if (Arg == "--reps")
      Reps = std::atoi(Argv[A + 1]);
    else if (Arg == "--launches")
      Launches = std::atoi(Argv[A + 1]);
    else {
      std::fprintf(stderr,
                   "usage: replay_baseline [--reps N] [--launches L]\n");
      return 2;
    }
  }
  if (Reps < 1 || Launches < 1) {
    std::fprintf(stderr, "usage: replay_baseline [--reps N] [--launches L]\n");
    return 2;
  }
  cudaStream_t S;
  CUDA_CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  int *D = nullptr;
  CUDA_CHECK(cudaMalloc(&D, kTinyN * sizeof(int)));
  unsigned Want = 0;
  for (int I = 0; I < Launches; ++I)
    Want += unsigned(I);
  std::vector<int> Host(kTinyN);
  std::vector<double> Ms;
  for (int R = 0; R <= Reps; ++R) {
    CUDA_CHECK(cudaMemsetAsync(D, 0, kTinyN * sizeof(int), S));
    CUDA_CHECK(cudaStreamSynchronize(S));
    double T0 = nowMs();
    for (int I = 0; I < Launches; ++I)
      addKernel<<<1, kTinyN, 0, S>>>(D, I);
    CUDA_CHECK(cudaStreamSynchronize(S));
    double T1 = nowMs();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(Host.data(), D, kTinyN * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (unsigned I = 0; I < kTinyN; ++I)
      if (unsigned(Host[I]) != Want)
        fail("tiny-distinct cuda: element " + std::to_string(I) + " is " +
             std::to_string(Host[I]) + ", expected " + std::to_string(Want));
    if (R > 0)
      Ms.push_back((T1 - T0) / Launches);
  }
  Summary T = summarize(Ms);
  printRow("tiny-distinct", "cuda", kTinyN, kTinyN, 1, T, 0.0);
  CUDA_CHECK(cudaFree(D));
  CUDA_CHECK(cudaStreamDestroy(S));
  return 0;
}
