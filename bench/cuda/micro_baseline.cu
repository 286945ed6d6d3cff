// nvcc's side of issue 34's micro benchmark (bench/AppsReference.h): one
// thread per column of 40 levels, the bulk microphysics of each cell, then
// rain and snow sedimentation in CFL-limited sub-steps, from the input
// state to the output state.
//
//   micro_baseline [--reps R] [--n COLUMNS]
//
// Prints a CSV row micro,nvcc,...; on stderr checksum,micro,nvcc,COLUMNS,
// the sum of the output state.
#include "../AppsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

__global__ void microKernel(MicroParams P, const float *__restrict__ in,
                            const float *__restrict__ pres,
                            const float *__restrict__ rho,
                            const float *__restrict__ dz,
                            float *__restrict__ out,
                            float *__restrict__ precip) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < P.Columns)
    microColumn(P, in, pres, rho, dz, out, precip, c);
}

int main(int argc, char **argv) {
  Options O =
      parseOptions(argc, argv, "micro_baseline [--reps R] [--n COLUMNS]");
  const size_t Columns = O.N ? O.N : kMicroColumns;
  if (Columns < 1 || Columns > (size_t(1) << 24))
    fail("micro: COLUMNS must be in [1, 2^24]");
  const MicroParams P = microParams(Columns);
  const MicroState S = microInputs(P);
  std::vector<float> Ref, RefPrecip;
  microCpu(P, S, Ref, RefPrecip);
  float *In = deviceCopy(S.Fields), *Pres = deviceCopy(S.Pres),
        *Rho = deviceCopy(S.Rho), *Dz = deviceCopy(S.Dz);
  float *Out, *Precip;
  CUDA_CHECK(cudaMalloc(&Out, S.Fields.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&Precip, 2 * Columns * sizeof(float)));
  const unsigned Grid = unsigned((Columns + kAppBlock - 1) / kAppBlock);
  auto launch = [&] {
    microKernel<<<Grid, kAppBlock>>>(P, In, Pres, Rho, Dz, Out, Precip);
  };
  std::vector<float> Got(S.Fields.size()), GotPrecip(2 * Columns);

  printHeader();
  launch();
  CUDA_CHECK(cudaGetLastError());
  download(Got, Out);
  download(GotPrecip, Precip);
  double Sum = microCheck(P, Ref, RefPrecip, Got, GotPrecip, "nvcc");
  printChecksum("micro", "nvcc", Columns, decimal(Sum));
  Timing T = timeLoops(O.Reps, kAppTrials, launch, [] {});
  download(Got, Out);
  download(GotPrecip, Precip);
  microCheck(P, Ref, RefPrecip, Got, GotPrecip, "nvcc");
  printRow("micro", "nvcc", Columns, kAppBlock, Grid, T.medianMs, T.minMs,
           double(2 * S.Fields.size() + 3 * S.Pres.size()) * sizeof(float));
  return 0;
}
