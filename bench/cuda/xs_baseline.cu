// nvcc's side of issue 34's xs benchmark (bench/AppsReference.h): one
// lookup per thread, a binary search in each of its material's nuclides'
// energy grids and five interpolated cross sections, the total written and
// the largest channel reduced per block in shared memory into a 64-bit
// counter (one atomicAdd a block).
//
//   xs_baseline [--reps R] [--n LOOKUPS] [--grid G]
//
// Prints a CSV row xs,nvcc,...; on stderr checksum,xs,nvcc,LOOKUPS,the
// counter after one launch. XS_MAX_DYNAMIC_SHARED=1 first raises the
// kernel's dynamic shared memory limit to all that the device allows, as
// mstage's runtime did for every kernel with a shared_array before issue
// 34's fix: tools/gpu/xs-probe.sh measures what that costs the lookups.
// XS_CARVEOUT=P sets the kernel's preferred shared memory carveout to P
// percent (cudaFuncAttributePreferredSharedMemoryCarveout; 0: the largest
// L1), and stderr says the blocks per multiprocessor that the occupancy
// calculator then gives: the xs probe's test of whether a larger L1 makes
// up for the occupancy that 32 registers allow (8 blocks of 256 against
// nvcc's 6 at 34 registers).
#include "../AppsReference.h"
#include "BenchTiming.cuh"

#include <cstdlib>

using namespace ports;

__global__ void
xsKernel(const float *__restrict__ energy, const float *__restrict__ xs,
         const int *__restrict__ count, const int *__restrict__ nuclide,
         const float *__restrict__ conc, int grid, int perMaterial,
         unsigned long long lookups, float *__restrict__ total,
         unsigned long long *__restrict__ hash) {
  __shared__ unsigned part[kAppBlock];
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned largest = 0;
  if (g < lookups)
    total[g] = xsLookup(energy, xs, count, nuclide, conc, grid, perMaterial, g,
                        largest);
  part[threadIdx.x] = largest;
  __syncthreads();
  for (unsigned s = kAppBlock / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(hash, (unsigned long long)part[0]);
}

int main(int argc, char **argv) {
  unsigned GridLen;
  Options O = parseXsOptions(
      argc, argv, "xs_baseline [--reps R] [--n LOOKUPS] [--grid G]", GridLen);
  const size_t Lookups = O.N ? O.N : kXsLookups;
  const XsTables T = xsTables(GridLen);
  const XsResult Ref = xsCpu(T, GridLen, Lookups);
  float *Energy = deviceCopy(T.Energy), *Xs = deviceCopy(T.Xs),
        *Conc = deviceCopy(T.Conc);
  int *Count = deviceCopy(T.Count), *Nuclide = deviceCopy(T.Nuclide);
  float *Total;
  unsigned long long *Hash;
  CUDA_CHECK(cudaMalloc(&Total, Lookups * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&Hash, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(Hash, 0, sizeof(unsigned long long)));
  const unsigned Grid = unsigned((Lookups + kAppBlock - 1) / kAppBlock);
  if (const char *Raise = std::getenv("XS_MAX_DYNAMIC_SHARED");
      Raise && *Raise == '1') {
    int Device, Optin;
    cudaFuncAttributes A;
    CUDA_CHECK(cudaGetDevice(&Device));
    CUDA_CHECK(cudaDeviceGetAttribute(
        &Optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, Device));
    CUDA_CHECK(cudaFuncGetAttributes(&A, xsKernel));
    CUDA_CHECK(cudaFuncSetAttribute(xsKernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Optin - int(A.sharedSizeBytes)));
    std::fprintf(stderr, "# xs_baseline: dynamic shared limit %d bytes\n",
                 Optin - int(A.sharedSizeBytes));
  }
  if (const char *Carveout = std::getenv("XS_CARVEOUT")) {
    CUDA_CHECK(cudaFuncSetAttribute(
        xsKernel, cudaFuncAttributePreferredSharedMemoryCarveout,
        std::atoi(Carveout)));
    int Blocks;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, xsKernel,
                                                             kAppBlock, 0));
    std::fprintf(stderr, "# xs_baseline: carveout %s%%, %d blocks/SM\n",
                 Carveout, Blocks);
  }
  auto launch = [&] {
    xsKernel<<<Grid, kAppBlock>>>(Energy, Xs, Count, Nuclide, Conc,
                                  int(GridLen), int(kXsMaxPerMaterial), Lookups,
                                  Total, Hash);
  };
  std::vector<float> Got(Lookups);
  std::vector<unsigned long long> GotHash(1);

  printHeader();
  launch();
  CUDA_CHECK(cudaGetLastError());
  download(Got, Total);
  download(GotHash, Hash);
  xsCheck(Ref, 1, Got, GotHash, "nvcc");
  printChecksum("xs", "nvcc", Lookups, std::to_string(GotHash[0]));
  Timing Tm = timeLoops(O.Reps, kAppTrials, launch, [] {});
  download(Got, Total);
  download(GotHash, Hash);
  xsCheck(Ref, 1 + appLaunches(O.Reps), Got, GotHash, "nvcc");
  printRow("xs", "nvcc", Lookups, kAppBlock, Grid, Tm.medianMs, Tm.minMs,
           double(Lookups) * sizeof(float));
  return 0;
}
