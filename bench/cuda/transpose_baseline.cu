// nvcc's side of issue 16's transpose: the CUDA SDK's matrix transpose
// kernels on N x N floats (bench/PortsReference.h), 32x32 tiles, blocks of
// 32x8 threads, each thread moving four elements:
//   copy            out = in, the bandwidth every transpose is measured by
//   naive           reads coalesced, writes strided by N
//   coalesced       through a 32x32 shared tile: both sides coalesced, the
//                   tile's columns on one bank
//   nobankconflict  the tile padded to 32x33
//
//   transpose_baseline [--reps R] [--n N]       (N a multiple of 32)
//
// Prints a CSV row per kernel, transpose,nvcc-KERNEL,...; on stderr
// checksum,transpose,nvcc,N,FNV-1a of the transposed matrix.
#include "../PortsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void copy(float *__restrict__ out, const float *__restrict__ in,
                     int width) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * width + x] = in[(y + j) * width + x];
}

__global__ void transposeNaive(float *__restrict__ out,
                               const float *__restrict__ in, int width) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[x * width + (y + j)] = in[(y + j) * width + x];
}

__global__ void transposeCoalesced(float *__restrict__ out,
                                   const float *__restrict__ in, int width) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeNoBankConflicts(float *__restrict__ out,
                                         const float *__restrict__ in,
                                         int width) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "transpose_baseline [--reps R] [--n N]");
  const size_t N = O.N ? O.N : kTransposeN;
  if (N % TILE_DIM)
    fail("transpose: n must be a multiple of 32");
  const size_t Bytes = N * N * sizeof(float);
  const std::vector<float> In = transposeInput(N);
  float *DIn, *DOut;
  CUDA_CHECK(cudaMalloc(&DIn, Bytes));
  CUDA_CHECK(cudaMalloc(&DOut, Bytes));
  CUDA_CHECK(cudaMemcpy(DIn, In.data(), Bytes, cudaMemcpyHostToDevice));
  const dim3 Grid(unsigned(N / TILE_DIM), unsigned(N / TILE_DIM));
  const dim3 Block(TILE_DIM, BLOCK_ROWS);

  printHeader();
  std::vector<float> Got(N * N);
  auto bench = [&](const char *Name, bool Transposed,
                   void (*K)(float *, const float *, int)) {
    CUDA_CHECK(cudaMemset(DOut, 0, Bytes));
    Timing T = timeLaunches(
        O.Reps, [&] { K<<<Grid, Block>>>(DOut, DIn, int(N)); },
        [&] {
          CUDA_CHECK(
              cudaMemcpy(Got.data(), DOut, Bytes, cudaMemcpyDeviceToHost));
          transposeCheck(N, In, Got, Transposed, std::string("nvcc-") + Name);
        });
    printRow("transpose", std::string("nvcc-") + Name, N, TILE_DIM * BLOCK_ROWS,
             Grid.x * Grid.y, T.medianMs, T.minMs, 2.0 * double(Bytes));
  };
  bench("copy", false, copy);
  bench("naive", true, transposeNaive);
  bench("coalesced", true, transposeCoalesced);
  bench("nobankconflict", true, transposeNoBankConflicts);
  printChecksum("transpose", "nvcc", N, hex(fnv1a(Got.data(), Bytes)));
  return 0;
}
