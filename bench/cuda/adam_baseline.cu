// nvcc's side of issue 34's Adam step (bench/AdamReference.h): HeCBench's
// adam kernel, a grid-stride loop over the elements, TimeSteps steps each,
// one thread per element (256 a block).
//
//   adam_baseline [--reps R] [--n ELEMENTS]
//
// Prints a CSV row adam,nvcc,...; on stderr checksum,adam,nvcc,N,the sum of
// the parameters after one launch.
#include "../AdamReference.h"
#include "BenchTiming.cuh"

using namespace ports;

__global__ void adamKernel(float *__restrict__ p, float *__restrict__ m,
                           float *__restrict__ v, const float *__restrict__ g,
                           AdamParams a, size_t n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  for (size_t j = i; j < n; j += threads)
    adamElement(p, m, v, g, a, j);
}

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "adam_baseline [--reps R] [--n N]");
  const size_t N = O.N ? O.N : kAdamN;
  const AdamState In = adamInputs(N);
  const AdamParams A = adamParams(kAdamTimeSteps);
  float *P = deviceCopy(In.P), *M = deviceCopy(In.M), *V = deviceCopy(In.V),
        *G = deviceCopy(In.G);
  const unsigned Grid = unsigned((N + kAppBlock - 1) / kAppBlock);
  auto launch = [&] { adamKernel<<<Grid, kAppBlock>>>(P, M, V, G, A, N); };
  std::vector<float> GotP(N), GotM(N), GotV(N);

  printHeader();
  launch();
  CUDA_CHECK(cudaGetLastError());
  download(GotP, P);
  download(GotM, M);
  download(GotV, V);
  adamCheck(In, A, GotP, GotM, GotV, "nvcc");
  printChecksum("adam", "nvcc", N, decimal(adamSum(GotP)));
  Timing Tm = timeLoops(O.Reps, kAppTrials, launch, [] {});
  // Bytes: p, m and v read and written, g read, once a launch.
  printRow("adam", "nvcc", N, kAppBlock, Grid, Tm.medianMs, Tm.minMs,
           7.0 * N * sizeof(float));
  return 0;
}
