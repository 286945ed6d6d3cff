// nvcc's side of issue 33's large-stencil benchmark (bench/mstage_stencil.cpp):
// the same four generated kernels (bench/StencilKernels.h) with the grid's
// edge and the time step as run-time arguments, the same schedule and checks
// (bench/StencilReference.h).
//
//   stencil_baseline [--mode run|kernels] [--n N] [--steps S] [--reps R]
//
//   run      the application: prints jit-cold,nvcc,stencil-run-N-STEPS,ms
//            (from before the first launch, the context made) and
//            checksum,stencil,nvcc,N,SUM; its process time is what
//            bench/run.sh compares with mstage's.
//   kernels  each kernel's time on the fine grid: stencil,nvcc-kK,... rows.
#include "../StencilReference.h"
#include "BenchTiming.cuh"

#include <chrono>
#include <string>
#include <utility>

namespace {

template <int K>
__global__ void stencilKernel(float *out, const float *__restrict__ u,
                              const float *__restrict__ v, int n, float dt) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < long(n) * n * n)
    out[i] = stencil::valueAt<K>(u, v, i, n, dt);
}

void launch(int K, int N, float *Out, const float *U, const float *V) {
  unsigned Blocks = stencil::blocksFor(N);
  switch (K) {
  case 0:
    return stencilKernel<0>
        <<<Blocks, stencil::kBlock>>>(Out, U, V, N, stencil::kDt);
  case 1:
    return stencilKernel<1>
        <<<Blocks, stencil::kBlock>>>(Out, U, V, N, stencil::kDt);
  case 2:
    return stencilKernel<2>
        <<<Blocks, stencil::kBlock>>>(Out, U, V, N, stencil::kDt);
  default:
    return stencilKernel<3>
        <<<Blocks, stencil::kBlock>>>(Out, U, V, N, stencil::kDt);
  }
}

std::vector<float> download(const float *D, int N) {
  std::vector<float> H(stencil::points(N));
  CUDA_CHECK(cudaMemcpy(H.data(), D, H.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  return H;
}

struct Grid {
  int N;
  float *Buf[3];
  int Prev = 0, Cur = 1, Next = 2;
  explicit Grid(int N) : N(N) {
    for (int B = 0; B < 3; ++B) {
      CUDA_CHECK(cudaMalloc(&Buf[B], stencil::points(N) * sizeof(float)));
      if (B < 2) {
        std::vector<float> F = stencil::initialField(N, B);
        CUDA_CHECK(cudaMemcpy(Buf[B], F.data(), F.size() * sizeof(float),
                              cudaMemcpyHostToDevice));
      }
    }
  }
  ~Grid() {
    for (float *B : Buf)
      cudaFree(B);
  }
  void apply(int K, bool Check) {
    stencil::RunPhases &P = stencil::runPhases();
    std::vector<float> U, V, Got;
    if (Check) {
      stencil::timed(P.WaitMs, [] { CUDA_CHECK(cudaDeviceSynchronize()); });
      stencil::timed(P.DownloadMs, [&] {
        U = download(Buf[Cur], N);
        V = download(Buf[Prev], N);
      });
    }
    stencil::timed(P.LaunchMs, [&] {
      launch(K, N, Buf[Next], Buf[Cur], Buf[Prev]);
      CUDA_CHECK(cudaGetLastError());
    });
    if (Check) {
      stencil::timed(P.WaitMs, [] { CUDA_CHECK(cudaDeviceSynchronize()); });
      stencil::timed(P.DownloadMs, [&] { Got = download(Buf[Next], N); });
      stencil::timed(P.CheckMs,
                     [&] { stencil::checkLaunch(K, N, U, V, Got, "nvcc"); });
    }
    Prev = std::exchange(Cur, std::exchange(Next, Prev));
  }
};

double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

void run(const stencil::Options &O) {
  std::vector<int> Sizes = stencil::gridSizes(O.N);
  Grid Fine(Sizes[0]), Coarse(Sizes[1]);
  CUDA_CHECK(cudaDeviceSynchronize());
  stencil::markProcess("nvcc", "run start");
  auto T0 = std::chrono::steady_clock::now();
  for (int Step = 0; Step < O.Steps; ++Step) {
    bool Check = Step == 0 || Step == O.Steps - 1;
    for (int K = 0; K < stencil::kKernels; ++K) {
      Fine.apply(K, Check);
      Coarse.apply(K, Check);
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  double Ms = msSince(T0);
  stencil::markProcess("nvcc", "run end");
  std::printf("jit-cold,nvcc,stencil-run-%d-%d,%.3f\n", O.N, O.Steps, Ms);
  stencil::printPhases("nvcc", Ms);
  ports::printChecksum("stencil", "nvcc", size_t(O.N),
                       stencil::checksum(download(Fine.Buf[Fine.Cur], O.N)));
  std::fprintf(stderr, "PASS stencil run (nvcc)\n");
}

void timeKernels(const stencil::Options &O) {
  Grid G(O.N);
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  for (int K = 0; K < stencil::kKernels; ++K) {
    G.apply(K, /*Check=*/true);
    Timing T = timeLaunches(
        O.Reps,
        [&] { launch(K, G.N, G.Buf[G.Next], G.Buf[G.Cur], G.Buf[G.Prev]); },
        [] {});
    double Bytes = 3.0 * double(stencil::points(O.N) * sizeof(float));
    std::printf("stencil,nvcc-k%d,%d,%u,%u,%.5f,%.5f,%.2f\n", K, O.N,
                stencil::kBlock, stencil::blocksFor(O.N), T.medianMs, T.minMs,
                Bytes / (T.medianMs * 1e6));
  }
}

} // namespace

int main(int Argc, char **Argv) {
  stencil::markProcess("nvcc", "main");
  stencil::Options O = stencil::parseOptions(
      Argc, Argv,
      "stencil_baseline [--mode run|kernels] [--n N] [--steps S] [--reps R]");
  CUDA_CHECK(cudaFree(nullptr)); // the context, as mstage's first allocation
  stencil::markProcess("nvcc", "context");
  if (O.Mode == "kernels")
    timeKernels(O);
  else {
    run(O);
    stencil::markProcess("nvcc", "main end", /*Last=*/true);
  }
  return 0;
}
