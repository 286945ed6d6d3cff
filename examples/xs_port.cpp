//===- xs_port.cpp - A CUDA kernel ported with CUDA's names ---------------===//
//
// The porting guide's walkthrough (docs/porting-from-cuda.md): the
// cross-section lookup kernel of bench/cuda/xs_baseline.cu (rsbench's event
// mode in small), moved into a kernel lambda with <mstage/cuda_compat.hpp>
// and its __host__ __device__ physics (bench/AppsReference.h) unchanged. It
// runs the kernel with its run-time constants as arguments (as nvcc's) and
// staged, and checks both against the same functions run on the host.
//
//   xs_port [LOOKUPS [GRID]]          (default 65536 lookups, 1024 energies)
//
//===----------------------------------------------------------------------===//
#include "AppsReference.h"

#include <mstage.hpp>
#include <mstage/cuda_compat.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ports;

// CUDA's __global__ void xsKernel(...), with the body unchanged but for the
// __shared__ array and the stage() calls of the staged version.
template <bool Staged> auto xsKernel() {
  return [](const float *__restrict__ energy, const float *__restrict__ xs,
            const int *__restrict__ count, const int *__restrict__ nuclide,
            const float *__restrict__ conc, int gridArg, int perMaterialArg,
            unsigned long long lookupsArg, float *__restrict__ total,
            unsigned long long *__restrict__ hash) {
    int grid = gridArg, perMaterial = perMaterialArg;
    unsigned long long lookups = lookupsArg;
    if constexpr (Staged) {
      // Folded into the PTX at launch: one compile per value.
      grid = mstage::stage(gridArg);
      perMaterial = mstage::stage(perMaterialArg);
      lookups = mstage::stage(lookupsArg);
    }
    mstage::shared_array<unsigned, kAppBlock> part; // __shared__
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned largest = 0;
    if (g < lookups)
      total[g] = xsLookup(energy, xs, count, nuclide, conc, grid, perMaterial,
                          g, largest);
    part[threadIdx.x] = largest;
    __syncthreads();
    for (unsigned s = kAppBlock / 2; s > 0; s /= 2) {
      if (threadIdx.x < s)
        part[threadIdx.x] += part[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      atomicAdd(hash, (unsigned long long)part[0]);
  };
}

// Launches one version once and compares it with the host's lookups.
template <bool Staged>
bool run(const XsTables &T, unsigned GridLen, std::size_t Lookups,
         const XsResult &Ref) {
  // cudaMalloc + cudaMemcpy: device_vector, uploaded on the default stream,
  // in order with the launch below (no stream: nothing to order by hand).
  const mstage::device_vector<float> Energy(T.Energy), Xs(T.Xs), Conc(T.Conc);
  const mstage::device_vector<int> Count(T.Count), Nuclide(T.Nuclide);
  mstage::device_vector<float> Total(Lookups);
  mstage::device_vector<unsigned long long> Hash(1, 0ull);
  const unsigned Blocks = unsigned((Lookups + kAppBlock - 1) / kAppBlock);
  // xsKernel<<<Blocks, kAppBlock>>>(...)
  auto K = mstage::kernel(xsKernel<Staged>(), Blocks, kAppBlock);
  K(Energy.data(), Xs.data(), Count.data(), Nuclide.data(), Conc.data(),
    int(GridLen), int(kXsMaxPerMaterial), (unsigned long long)Lookups,
    Total.data(), Hash.data());
  const char *Name = Staged ? "staged" : "unstaged";
  if (!mstage_rt_executes()) {
    std::printf("xs_port %s: compiled to PTX only, not checked\n", Name);
    return true;
  }
  const std::vector<float> Got = Total.download();
  const unsigned long long GotHash = Hash.download()[0];
  double Worst = 0;
  for (std::size_t I = 0; I < Lookups; ++I)
    Worst = std::max(Worst, relDiff(Got[I], Ref.Total[I], 1e-3));
  // Contraction into fma on the GPU may move a near tie between channels.
  const double Slack = 4.0 * (1.0 + double(Lookups) / 1e5);
  const bool Ok =
      Worst <= 1e-5 && std::fabs(double(GotHash) - double(Ref.Hash)) <= Slack;
  std::printf("xs_port %s: %zu lookups, hash %llu (host %llu), largest "
              "relative difference %.1e: %s\n",
              Name, Lookups, GotHash, Ref.Hash, Worst, Ok ? "PASS" : "FAIL");
  return Ok;
}

int main(int Argc, char **Argv) {
  const std::size_t Lookups =
      Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : std::size_t(1) << 16;
  const unsigned GridLen = Argc > 2 ? unsigned(std::atoi(Argv[2])) : 1024;
  if (Lookups == 0 || GridLen < 2 || GridLen > (1u << 20)) {
    std::fprintf(stderr, "usage: xs_port [LOOKUPS [GRID]] (GRID 2 to 2^20)\n");
    return 2;
  }
  const XsTables T = xsTables(GridLen);
  const XsResult Ref = xsCpu(T, GridLen, Lookups); // the host's lookups
  const bool Ok = run<false>(T, GridLen, Lookups, Ref) &
                  run<true>(T, GridLen, Lookups, Ref);
  return Ok ? 0 : 1;
}
