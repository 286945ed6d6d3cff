// nvcc's side of issue 16's hotspot: Rodinia's 2-D thermal simulation with
// its pyramid (bench/PortsReference.h has the sizes and constants). Each
// 16x16 block loads its tile of temperature and power into shared memory and
// runs two iterations there, its border shrinking by one cell per
// iteration, so that it writes its inner 12x12 cells; launches swap the two
// temperature grids. The arithmetic is in float (Rodinia writes 2.0, a
// double, which a CUDA programmer tuning it would not keep).
//
//   hotspot_baseline [--reps R] [--n N]
//
// Prints the CSV row hotspot,nvcc,N,256,GRID^2,...; on stderr
// checksum,hotspot,nvcc,N,SUM (the field after 3 launches).
#include "../PortsReference.h"
#include "BenchTiming.cuh"

using namespace ports;

#define BLOCK_SIZE 16
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

__global__ void calculateTemp(int iteration, const float *__restrict__ power,
                              const float *__restrict__ tempSrc,
                              float *__restrict__ tempDst, int gridCols,
                              int gridRows, int borderCols, int borderRows,
                              float stepDivCap, float rx1, float ry1, float rz1,
                              float amb) {
  __shared__ float tempOn[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float powerOn[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float tempT[BLOCK_SIZE][BLOCK_SIZE];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  // The cells this block writes, and the tile it loads around them.
  int smallRows = BLOCK_SIZE - iteration * 2;
  int smallCols = BLOCK_SIZE - iteration * 2;
  int blkY = smallRows * by - borderRows;
  int blkX = smallCols * bx - borderCols;
  int blkYmax = blkY + BLOCK_SIZE - 1;
  int blkXmax = blkX + BLOCK_SIZE - 1;
  int yidx = blkY + ty, xidx = blkX + tx;
  int index = gridCols * yidx + xidx;
  if (IN_RANGE(yidx, 0, gridRows - 1) && IN_RANGE(xidx, 0, gridCols - 1)) {
    tempOn[ty][tx] = tempSrc[index];
    powerOn[ty][tx] = power[index];
  }
  __syncthreads();

  // The part of the tile inside the grid; neighbours outside it are the
  // cell itself.
  int validYmin = blkY < 0 ? -blkY : 0;
  int validYmax = blkYmax > gridRows - 1
                      ? BLOCK_SIZE - 1 - (blkYmax - gridRows + 1)
                      : BLOCK_SIZE - 1;
  int validXmin = blkX < 0 ? -blkX : 0;
  int validXmax = blkXmax > gridCols - 1
                      ? BLOCK_SIZE - 1 - (blkXmax - gridCols + 1)
                      : BLOCK_SIZE - 1;
  int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
  N = N < validYmin ? validYmin : N;
  S = S > validYmax ? validYmax : S;
  W = W < validXmin ? validXmin : W;
  E = E > validXmax ? validXmax : E;

  bool computed = false;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(tx, validXmin, validXmax) &&
        IN_RANGE(ty, validYmin, validYmax)) {
      computed = true;
      float t = tempOn[ty][tx];
      tempT[ty][tx] =
          t + stepDivCap * (powerOn[ty][tx] +
                            (tempOn[S][tx] + tempOn[N][tx] - 2.0f * t) * ry1 +
                            (tempOn[ty][E] + tempOn[ty][W] - 2.0f * t) * rx1 +
                            (amb - t) * rz1);
    }
    __syncthreads();
    if (i == iteration - 1)
      break;
    if (computed)
      tempOn[ty][tx] = tempT[ty][tx];
    __syncthreads();
  }
  if (computed)
    tempDst[index] = tempT[ty][tx];
}

int main(int argc, char **argv) {
  Options O = parseOptions(argc, argv, "hotspot_baseline [--reps R] [--n N]");
  const size_t N = O.N ? O.N : kHotspotN;
  const size_t Cells = N * N;
  std::vector<float> Temp, Power;
  hotspotInputs(N, Temp, Power);
  const HotspotConstants C = hotspotConstants(N);

  float *DPower, *DTemp[2];
  CUDA_CHECK(cudaMalloc(&DPower, Cells * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(DPower, Power.data(), Cells * sizeof(float),
                        cudaMemcpyHostToDevice));
  for (float *&P : DTemp) {
    CUDA_CHECK(cudaMalloc(&P, Cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(P, Temp.data(), Cells * sizeof(float),
                          cudaMemcpyHostToDevice));
  }
  const unsigned G = hotspotGrid(N);
  const dim3 Grid(G, G), Block(BLOCK_SIZE, BLOCK_SIZE);
  const int Border = kHotspotPyramid; // pyramid * EXPAND_RATE / 2
  int Src = 0;
  auto launch = [&] {
    calculateTemp<<<Grid, Block>>>(
        kHotspotPyramid, DPower, DTemp[Src], DTemp[1 - Src], int(N), int(N),
        Border, Border, C.StepDivCap, C.Rx1, C.Ry1, C.Rz1, C.Amb);
    Src = 1 - Src;
  };

  // The check: a few launches from the initial field against the CPU.
  std::vector<float> Got(Cells);
  for (int L = 0; L < kHotspotCheckLaunches; ++L)
    launch();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(Got.data(), DTemp[Src], Cells * sizeof(float),
                        cudaMemcpyDeviceToHost));
  hotspotCheck(N, Temp, Power, kHotspotCheckLaunches * kHotspotPyramid, Got,
               "nvcc");
  printChecksum("hotspot", "nvcc", N, sumChecksum(Got, 10));

  // Timed: one launch (two iterations) at a time, going on from there.
  Timing T = timeLaunches(O.Reps, launch, [] {});
  printHeader();
  // Bytes: temperature and power read, temperature written, per cell.
  printRow("hotspot", "nvcc", N, BLOCK_SIZE * BLOCK_SIZE, G * G, T.medianMs,
           T.minMs, 12.0 * double(Cells));
  return 0;
}
