// nvcc's side of issue 16's histogram: 256 bins over N bytes
// (bench/PortsReference.h), read four at a time as uchar4 by a grid-stride
// loop of 8 blocks of 256 threads per multiprocessor:
//   shared  per-block bins in shared memory (atomicAdd there), merged into
//           the global bins at the end of the block
//   global  atomicAdd on the global bins for every byte
// The launches add to the same bins: after R launches each bin must be R
// times the CPU's count.
//
//   histogram_baseline [--reps R] [--n N]       (N a multiple of 4)
//
// Prints a CSV row per variant, histogram,nvcc-VARIANT,...; on stderr
// checksum,histogram,nvcc,N,FNV-1a of the bins of one launch.
#include "../PortsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

#define BINS 256

__global__ void histogramShared(const uchar4 *__restrict__ in, size_t n4,
                                unsigned *__restrict__ hist) {
  __shared__ unsigned bins[BINS];
  for (unsigned i = threadIdx.x; i < BINS; i += blockDim.x)
    bins[i] = 0;
  __syncthreads();
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += stride) {
    uchar4 v = in[i];
    atomicAdd(&bins[v.x], 1u);
    atomicAdd(&bins[v.y], 1u);
    atomicAdd(&bins[v.z], 1u);
    atomicAdd(&bins[v.w], 1u);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < BINS; i += blockDim.x)
    if (bins[i])
      atomicAdd(&hist[i], bins[i]);
}

__global__ void histogramGlobal(const uchar4 *__restrict__ in, size_t n4,
                                unsigned *__restrict__ hist) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += stride) {
    uchar4 v = in[i];
    atomicAdd(&hist[v.x], 1u);
    atomicAdd(&hist[v.y], 1u);
    atomicAdd(&hist[v.z], 1u);
    atomicAdd(&hist[v.w], 1u);
  }
}

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "histogram_baseline [--reps R] [--n N]");
  const size_t N = O.N ? O.N : kHistogramN;
  if (N % 4)
    fail("histogram: n must be a multiple of 4");
  const std::vector<unsigned char> In = histogramInput(N);
  const std::vector<unsigned> Ref = histogramCpu(In);
  uchar4 *DIn;
  unsigned *DHist;
  CUDA_CHECK(cudaMalloc(&DIn, N));
  CUDA_CHECK(cudaMalloc(&DHist, BINS * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(DIn, In.data(), N, cudaMemcpyHostToDevice));
  int Dev, Sms;
  CUDA_CHECK(cudaGetDevice(&Dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Dev));
  const unsigned Grid = unsigned(Sms) * kHistogramBlocksPerSm;

  printHeader();
  std::vector<unsigned> Got(BINS);
  auto download = [&] {
    CUDA_CHECK(cudaMemcpy(Got.data(), DHist, BINS * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
  };
  auto bench = [&](const char *Name,
                   void (*K)(const uchar4 *, size_t, unsigned *)) {
    std::string Variant = std::string("nvcc-") + Name;
    CUDA_CHECK(cudaMemset(DHist, 0, BINS * sizeof(unsigned)));
    K<<<Grid, kHistogramBlock>>>(DIn, N / 4, DHist);
    CUDA_CHECK(cudaGetLastError());
    download();
    histogramCheck(Ref, 1, Got, Variant);
    if (!std::strcmp(Name, "shared"))
      printChecksum("histogram", "nvcc", N,
                    hex(fnv1a(Got.data(), BINS * sizeof(unsigned))));
    Timing T = timeLaunches(
        O.Reps, [&] { K<<<Grid, kHistogramBlock>>>(DIn, N / 4, DHist); },
        [] {});
    download();
    histogramCheck(Ref, unsigned(1 + kWarmups + O.Reps), Got, Variant);
    printRow("histogram", Variant, N, kHistogramBlock, Grid, T.medianMs,
             T.minMs, double(N));
  };
  bench("shared", histogramShared);
  bench("global", histogramGlobal);
  return 0;
}
