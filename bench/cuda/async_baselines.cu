// Hand-written CUDA baselines for the asynchronous-API benchmarks (issue 14);
// bench/mstage_async.cpp is mstage's side, with the same variants and checks.
//
//   async_baselines [--only tiny|heat|heat-floor|transfer|alloc] [--reps N]
//                   [--steps S] [--heat-reps R] [--transfer-reps T]
//
// All times are host wall times (std::chrono::steady_clock) of loops that end
// in a synchronization, as an application sees them. The CUDA variants use
// one non-blocking stream, except cuda-pageable (the legacy default stream,
// as a plain cudaMemcpy program would).
//
// tiny-launch  256 ints, grid 1, block 256; each kernel adds 1 to every
//              element. median_ms and min_ms are per kernel, over --reps
//              (default 7) runs of 10,000 kernels after one warm-up run:
//   cuda-async   10,000 <<<>>> launches, then one cudaStreamSynchronize
//   cuda-graph   100 launches captured into a graph; the graph launched 100
//                times, then one synchronize
//   cuda-sync    10,000 times: a launch and cudaStreamSynchronize
// heat         2-D heat equation (Jacobi) on N x N floats, N = 256, 1024,
//              4096, 8192; two buffers swapped each step; a step is two
//              kernels: the interior (block 32x8) and the boundary (block
//              256). Every 100 steps and after the last a third kernel finds
//              max |unew - uold| (atomicMax on the float bits) and the value
//              is copied back. --steps (default 1000) steps a run; median_ms
//              and min_ms per step over --heat-reps (default 3) runs. gbps =
//              8 bytes a cell (one read, one write) per step.
//   cuda         <<<>>> launches; a cudaStreamSynchronize at each check
//   cuda-graph   the same operations captured by hand: one graph a segment
//                of 100 steps and its check (copy to pinned memory),
//                launched and synchronized a segment at a time (issue 36's
//                "nvcc with a hand-written graph")
//   cuda-graph-interior-only  (--only heat-floor) the same graph without the
//                boundary kernel: what the interior kernel alone costs a
//                step in a graph; not the heat equation, so not checked
//   cuda-graph-parallel  (--only heat-floor) the hand-written graph with a
//                step's two kernels on two branches (they write disjoint
//                cells): what a step costs when the boundary kernel runs
//                beside the interior; checked like cuda-graph
//   cuda-graph-fused[-edges-first]  (--only heat-floor) the hand-written
//                graph with a step as one kernel (heatFused: the interior's
//                blocks and the boundary's in one grid, the boundary's last
//                or first): what merging the two kernels would give; checked
//                like cuda-graph
//   cuda-graph-parallel-split  (--only heat-floor with HEAT_SPLIT=a,b,...)
//                the parallel graph's segment as graphs of a, b, ... steps
//                and its rest, the check's three operations plain after
//                them: the shape of mstage's replay; checked
//   cuda-graph[-parallel]-coarseK  (--only heat-floor with HEAT_COARSEN set)
//                the same graphs with the interior kernel coarsened: each
//                thread does the work of K = 2, 4, 8 blocks' threads in y;
//                checked like cuda-graph
//   cuda[-graph]-pdl  (--only heat-floor) <<<>>> and the graph with a step's
//                kernels launched with programmatic stream serialization
//                (each waits at its entry for the kernel ahead); checked
//   cuda-graph-coarseK-restrict  (--only heat-floor with HEAT_RESTRICT set)
//                the graph with heatInteriorCoarseRestrict, K = 1, 2, 4, 8
//   cuda-graph[-parallel]-coarseK-ilp  (the same) heatInteriorCoarseIlp,
//                K = 2, 4, 8: every load of a thread's K rows before its
//                stores
// transfer     y += x on 2^20 floats of host data; per iteration, median over
//              --transfer-reps (default 50) iterations after 3 warm-ups.
//              gbps = 12 bytes a float (x in, y in, y out) / time.
//   cuda-pageable  cudaMemcpy x and y into persistent device buffers, the
//                  kernel, cudaMemcpy y back (std::vector host data)
//   cuda-pinned    cudaMallocHost data, cudaMemcpyAsync in, the kernel,
//                  cudaMemcpyAsync back, cudaStreamSynchronize
// alloc        4 MiB (2^20 floats) allocated and freed in a loop; median_ms
//              and min_ms per allocate + free over --reps runs:
//   cuda-malloc       cudaMalloc + cudaFree, 1,000 a run
//   cuda-mallocasync  cudaMallocAsync + cudaFreeAsync on the stream, from the
//                     device's default pool with its release threshold at
//                     the maximum (memory stays in the pool), 10,000 a run,
//                     then one synchronize
//
// Checks: tiny-launch, the count in every element after every run; heat, the
// field after a short run (200 steps at 256^2, down to 2 at 8192^2) bit for
// bit against the CPU (bench/AsyncReference.h) and the residual read back,
// every timed run must end on the same field, and where the CPU is quick
// enough (cells x steps <= 2^26: 256^2) that field must be the CPU's too;
// transfer, y = y0 + k*x exactly after the warm-ups and after the timed
// iterations; alloc, a write to the memory read back. A wrong result prints
// FAIL on stderr and exits with status 1.
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
// stderr: '#' lines, and per heat size one line
//         checksum,heat,cuda,N,STEPS,FNV-1a of the final field's bits,residual
//         which bench/run.sh collects for bench/report.py to compare.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../AsyncReference.h"
#include "BenchTiming.cuh"

using namespace asyncbench;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

__global__ void tinyKernel(int *v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] + 1;
}

// One cell (row i, column j) of a step, if inside; one thread's edge cells.
__device__ void heatCell(const float *uold, float *unew, size_t n, size_t i,
                         size_t j) {
  if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n)
    unew[i * n + j] = 0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                               uold[i * n + j + 1] + uold[i * n + j - 1]);
}
__device__ void heatEdges(float *u, size_t n, size_t t) {
  if (t >= n)
    return;
  u[t * n] = 1.0f;
  u[t * n + n - 1] = 0.0f;
  if (t > 0) {
    u[t] = 0.0f;
    u[(n - 1) * n + t] = 0.0f;
  }
}

__global__ void heatInterior(const float *uold, float *unew, size_t n) {
  heatCell(uold, unew, n, size_t(blockIdx.y) * blockDim.y + threadIdx.y,
           size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// heatInterior with each thread doing the work of K blocks' threads in y
// (blocks blockIdx.y * K + k): what a thread-coarsening compiler would make
// of it; the same cells get the same arithmetic.
template <int K>
__global__ void heatInteriorCoarse(const float *uold, float *unew, size_t n,
                                   unsigned gridY) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    size_t by = size_t(blockIdx.y) * K + k;
    if (by >= gridY)
      return;
    size_t i = by * blockDim.y + threadIdx.y;                 // row
    size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; // column
    if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n)
      unew[i * n + j] = 0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                                 uold[i * n + j + 1] + uold[i * n + j - 1]);
  }
}

// Programmatic dependent launch (PDL): a kernel launched with the
// programmatic-serialization attribute may start before the kernel ahead
// of it on its stream has ended; waiting at its entry for that kernel's
// completion (and its memory) keeps the order, and triggering right after
// lets the next one start too. What overlaps is a launch's start with the
// tail of the kernel ahead of it.
__device__ __forceinline__ void waitForPrerequisiteGrids() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

__global__ void heatInteriorPdl(const float *uold, float *unew, size_t n) {
  waitForPrerequisiteGrids();
  heatCell(uold, unew, n, size_t(blockIdx.y) * blockDim.y + threadIdx.y,
           size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

__global__ void heatBoundaryPdl(float *u, size_t n) {
  waitForPrerequisiteGrids();
  heatEdges(u, n, size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// The same with its fields marked apart (__restrict__), as a JIT that sees
// two distinct device vectors could mark them: the loads of one block's
// rows may then be issued before the stores of the previous one.
template <int K>
__global__ void heatInteriorCoarseRestrict(const float *__restrict__ uold,
                                           float *__restrict__ unew, size_t n,
                                           unsigned gridY) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    size_t by = size_t(blockIdx.y) * K + k;
    if (by >= gridY)
      return;
    size_t i = by * blockDim.y + threadIdx.y;                 // row
    size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; // column
    if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n)
      unew[i * n + j] = 0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                                 uold[i * n + j + 1] + uold[i * n + j - 1]);
  }
}

// The same with every load of the K blocks' rows ahead of the first store
// (what a JIT could reorder to once it knows the fields apart): K
// independent loads in flight a thread instead of one row's at a time.
template <int K>
__global__ void heatInteriorCoarseIlp(const float *__restrict__ uold,
                                      float *__restrict__ unew, size_t n,
                                      unsigned gridY) {
  float Value[K];
  bool Inside[K];
  size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; // column
#pragma unroll
  for (int k = 0; k < K; ++k) {
    size_t by = size_t(blockIdx.y) * K + k;
    size_t i = by * blockDim.y + threadIdx.y; // row
    Inside[k] = by < gridY && i >= 1 && i + 1 < n && j >= 1 && j + 1 < n;
    if (Inside[k])
      Value[k] = 0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                          uold[i * n + j + 1] + uold[i * n + j - 1]);
  }
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (Inside[k])
      unew[((size_t(blockIdx.y) * K + k) * blockDim.y + threadIdx.y) * n + j] =
          Value[k];
}

__global__ void heatBoundary(float *u, size_t n) {
  heatEdges(u, n, size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// heatInterior's and heatBoundary's work of a step as one kernel of 1-D
// blocks of kHeatThreads: InteriorBlocks blocks of the interior's grid (rows
// of 1 << GridXShift blocks of kHeatBlockX x kHeatBlockY) and the
// boundary's blocks, those first when EdgesFirst. Their writes are apart, so
// one launch may do both: what a compiler that merged a step's independent
// kernels would make.
__global__ void heatFused(const float *uold, float *unew, size_t n,
                          unsigned GridXShift, unsigned InteriorBlocks,
                          unsigned BoundaryBlocks, bool EdgesFirst) {
  unsigned B = blockIdx.x;
  bool Interior = EdgesFirst ? B >= BoundaryBlocks : B < InteriorBlocks;
  if (Interior) {
    B -= EdgesFirst ? BoundaryBlocks : 0;
    heatCell(uold, unew, n,
             size_t(B >> GridXShift) * kHeatBlockY + threadIdx.x / kHeatBlockX,
             size_t(B & ((1u << GridXShift) - 1)) * kHeatBlockX +
                 threadIdx.x % kHeatBlockX);
    return;
  }
  B -= EdgesFirst ? 0 : InteriorBlocks;
  heatEdges(unew, n, size_t(B) * kHeatThreads + threadIdx.x);
}

// The values are >= 0, so their bits order as unsigned integers do.
__global__ void heatResidual(const float *a, const float *b, size_t cells,
                             unsigned *result) {
  float m = 0.0f;
  for (size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < cells;
       k += size_t(gridDim.x) * blockDim.x)
    m = fmaxf(m, fabsf(a[k] - b[k]));
  atomicMax(result, __float_as_uint(m));
}

__global__ void addKernel(const float *x, float *y, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] + x[i];
}

namespace {

// Launches K with programmatic stream serialization (see
// waitForPrerequisiteGrids).
template <class... Params, class... Args>
void launchPdl(void (*K)(Params...), dim3 Grid, dim3 Block, cudaStream_t S,
               Args... A) {
  cudaLaunchAttribute Attr[1] = {};
  Attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = Grid;
  Config.blockDim = Block;
  Config.stream = S;
  Config.attrs = Attr;
  Config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&Config, K, A...));
}

// Calls Launch with std::integral_constant<int, K> for K = Coarsen (1, 2, 4
// or 8): the coarsened kernels are instantiated for those.
template <class Fn> void forCoarsening(int Coarsen, Fn Launch) {
  switch (Coarsen) {
  case 1:
    return Launch(std::integral_constant<int, 1>());
  case 2:
    return Launch(std::integral_constant<int, 2>());
  case 4:
    return Launch(std::integral_constant<int, 4>());
  case 8:
    return Launch(std::integral_constant<int, 8>());
  }
  fail("no coarsened heat kernel for K = " + std::to_string(Coarsen));
}

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

int Reps = 7, HeatReps = 3, TransferReps = 50, Steps = 1000;

//===----------------------------------------------------------------------===//
// Back-to-back tiny launches
//===----------------------------------------------------------------------===//

void benchTiny(cudaStream_t S) {
  int *D = nullptr;
  CUDA_CHECK(cudaMalloc(&D, kTinyN * sizeof(int)));
  std::vector<int> Host(kTinyN);

  // Runs Run() once to warm up and Reps times timed, each from zeros, and
  // checks after each that every element counts Kernels launches.
  auto measure = [&](const char *Variant, int Kernels,
                     const std::function<void()> &Run) {
    std::vector<double> Ms;
    for (int R = 0; R <= Reps; ++R) {
      CUDA_CHECK(cudaMemsetAsync(D, 0, kTinyN * sizeof(int), S));
      CUDA_CHECK(cudaStreamSynchronize(S));
      double T0 = nowMs();
      Run();
      double T1 = nowMs();
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(Host.data(), D, kTinyN * sizeof(int),
                            cudaMemcpyDeviceToHost));
      for (unsigned I = 0; I < kTinyN; ++I)
        if (Host[I] != Kernels)
          fail(std::string("tiny-launch ") + Variant + ": element " +
               std::to_string(I) + " is " + std::to_string(Host[I]) +
               ", expected " + std::to_string(Kernels));
      if (R > 0)
        Ms.push_back((T1 - T0) / Kernels);
    }
    printRow("tiny-launch", Variant, kTinyN, kTinyN, 1, summarize(Ms), 0.0);
  };

  measure("cuda-async", kTinyLaunches, [&] {
    for (int L = 0; L < kTinyLaunches; ++L)
      tinyKernel<<<1, kTinyN, 0, S>>>(D);
    CUDA_CHECK(cudaStreamSynchronize(S));
  });

  cudaGraph_t Graph;
  cudaGraphExec_t Exec;
  CUDA_CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal));
  for (int L = 0; L < kGraphKernels; ++L)
    tinyKernel<<<1, kTinyN, 0, S>>>(D);
  CUDA_CHECK(cudaStreamEndCapture(S, &Graph));
  CUDA_CHECK(cudaGraphInstantiate(&Exec, Graph, 0));
  const int Replays = kTinyLaunches / kGraphKernels;
  measure("cuda-graph", Replays * kGraphKernels, [&] {
    for (int G = 0; G < Replays; ++G)
      CUDA_CHECK(cudaGraphLaunch(Exec, S));
    CUDA_CHECK(cudaStreamSynchronize(S));
  });
  CUDA_CHECK(cudaGraphExecDestroy(Exec));
  CUDA_CHECK(cudaGraphDestroy(Graph));

  measure("cuda-sync", kTinyLaunches, [&] {
    for (int L = 0; L < kTinyLaunches; ++L) {
      tinyKernel<<<1, kTinyN, 0, S>>>(D);
      CUDA_CHECK(cudaStreamSynchronize(S));
    }
  });
  CUDA_CHECK(cudaFree(D));
}

//===----------------------------------------------------------------------===//
// 2-D heat equation
//===----------------------------------------------------------------------===//

// Variant cuda: <<<>>> launches. cuda-graph: the same operations captured
// by hand, one graph per segment up to and including a check (kHeatCheckEvery
// steps, then the memset, the residual kernel and the copy to pinned memory),
// keyed by its length and the buffer it starts from; a run launches one graph
// a segment and synchronizes after it, as the <<<>>> loop does at each check.
// InteriorOnly (--only heat-floor, with UseGraphs): the graph without the
// boundary kernel, a diagnostic of what the interior alone costs a step;
// its field is not the heat equation's, so it is not checked.
// Parallel (--only heat-floor, with UseGraphs): a step's boundary kernel on
// a second stream forked from S and joined back, so the graph's two kernels
// of a step are independent nodes.
// Pdl (--only heat-floor): a step's two kernels launched with programmatic
// serialization (heatInteriorPdl, heatBoundaryPdl), in a graph or not.
// Fused (--only heat-floor, with UseGraphs): a step as one kernel,
// heatFused (N a power of two), the interior's blocks first (1) or the
// boundary's (2).
// Restrict: the interior kernel coarsened by Coarsen (1 too) with its fields
// marked __restrict__.
void benchHeat(cudaStream_t S, size_t N, bool UseGraphs,
               bool InteriorOnly = false, bool Parallel = false,
               int Coarsen = 1, bool Pdl = false, bool Restrict = false,
               bool Ilp = false, int Fused = 0) {
  std::string VariantName = InteriorOnly ? "cuda-graph-interior-only"
                            : Fused == 1 ? "cuda-graph-fused"
                            : Fused == 2 ? "cuda-graph-fused-edges-first"
                            : Parallel   ? "cuda-graph-parallel"
                            : UseGraphs  ? "cuda-graph"
                                         : "cuda";
  if (Coarsen > 1)
    VariantName += "-coarse" + std::to_string(Coarsen);
  if (Pdl)
    VariantName += "-pdl";
  if (Restrict)
    VariantName += Ilp ? "-ilp" : "-restrict";
  // HEAT_SPLIT=a,b,...: the parallel graph's segment as graphs of a, b, ...
  // steps and the rest, the check's operations plain after them (as
  // mstage's replay has them), variant cuda-graph-parallel-split.
  std::vector<int> Split;
  if (const char *E = std::getenv("HEAT_SPLIT"); E && Parallel) {
    for (const char *P = E; *P;) {
      Split.push_back(std::atoi(P));
      while (*P && *P != ',')
        ++P;
      P += *P == ',';
    }
    VariantName += "-split";
  }
  const char *Variant = VariantName.c_str();
  cudaStream_t Side = nullptr;
  cudaEvent_t Fork = nullptr, Join = nullptr;
  if (Parallel) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&Side, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&Fork, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&Join, cudaEventDisableTiming));
  }
  const size_t Cells = N * N;
  const std::vector<float> Initial = heatInitial(N);
  float *D[2] = {nullptr, nullptr};
  unsigned *DResidual = nullptr, *HResidual = nullptr;
  for (float *&P : D)
    CUDA_CHECK(cudaMalloc(&P, Cells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DResidual, sizeof(unsigned)));
  CUDA_CHECK(cudaMallocHost(&HResidual, sizeof(unsigned)));
  const dim3 Block(kHeatBlockX, kHeatBlockY);
  const dim3 Grid(unsigned((N + kHeatBlockX - 1) / kHeatBlockX),
                  unsigned((N + kHeatBlockY - 1) / kHeatBlockY));
  const unsigned BoundaryGrid = unsigned((N + kHeatThreads - 1) / kHeatThreads);
  const unsigned ResidualGrid = heatResidualGrid(N);
  int Cur = 0; // the buffer that holds the field

  auto reset = [&] {
    for (float *P : D)
      CUDA_CHECK(cudaMemcpy(P, Initial.data(), Cells * sizeof(float),
                            cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA is done, and S does
    // not wait for the legacy stream.
    CUDA_CHECK(cudaDeviceSynchronize());
    Cur = 0;
  };
  unsigned GridXShift = 0; // Fused: N is a power of two
  while ((1u << GridXShift) < Grid.x)
    ++GridXShift;
  auto step = [&](int From) {
    if (Fused) {
      heatFused<<<Grid.x * Grid.y + BoundaryGrid, kHeatThreads, 0, S>>>(
          D[From], D[1 - From], N, GridXShift, Grid.x * Grid.y, BoundaryGrid,
          Fused == 2);
      return;
    }
    if (Parallel) {
      CUDA_CHECK(cudaEventRecord(Fork, S));
      CUDA_CHECK(cudaStreamWaitEvent(Side, Fork, 0));
      heatBoundary<<<BoundaryGrid, kHeatThreads, 0, Side>>>(D[1 - From], N);
      CUDA_CHECK(cudaEventRecord(Join, Side));
    }
    if (Pdl) {
      launchPdl(heatInteriorPdl, Grid, Block, S, (const float *)D[From],
                D[1 - From], N);
      launchPdl(heatBoundaryPdl, dim3(BoundaryGrid), dim3(kHeatThreads), S,
                D[1 - From], N);
      return;
    }
    if (Coarsen == 1 && !Restrict) {
      heatInterior<<<Grid, Block, 0, S>>>(D[From], D[1 - From], N);
    } else {
      const dim3 CoarseGrid(Grid.x, (Grid.y + Coarsen - 1) / Coarsen);
      forCoarsening(Coarsen, [&](auto Factor) {
        constexpr int K = decltype(Factor)::value;
        if (Ilp)
          heatInteriorCoarseIlp<K>
              <<<CoarseGrid, Block, 0, S>>>(D[From], D[1 - From], N, Grid.y);
        else if (Restrict)
          heatInteriorCoarseRestrict<K>
              <<<CoarseGrid, Block, 0, S>>>(D[From], D[1 - From], N, Grid.y);
        else
          heatInteriorCoarse<K>
              <<<CoarseGrid, Block, 0, S>>>(D[From], D[1 - From], N, Grid.y);
      });
    }
    if (Parallel)
      CUDA_CHECK(cudaStreamWaitEvent(S, Join, 0));
    else if (!InteriorOnly)
      heatBoundary<<<BoundaryGrid, kHeatThreads, 0, S>>>(D[1 - From], N);
  };
  // The check after a step that left the field in D[1 - From], read back
  // into To (pinned for a graph; the <<<>>> loop's is on its stack).
  auto check = [&](int From, unsigned *To) {
    CUDA_CHECK(cudaMemsetAsync(DResidual, 0, sizeof(unsigned), S));
    heatResidual<<<ResidualGrid, kHeatThreads, 0, S>>>(D[1 - From], D[From],
                                                       Cells, DResidual);
    CUDA_CHECK(cudaMemcpyAsync(To, DResidual, sizeof(unsigned),
                               cudaMemcpyDeviceToHost, S));
  };
  // A segment's graph: Length steps from D[From], then the check (unless
  // a split segment's piece).
  std::vector<std::pair<std::tuple<int, int, bool>, cudaGraphExec_t>> Graphs;
  auto graphOf = [&](int Length, int From, bool WithCheck = true) {
    for (auto &[Key, Exec] : Graphs)
      if (Key == std::make_tuple(Length, From, WithCheck))
        return Exec;
    cudaGraph_t Graph;
    cudaGraphExec_t Exec;
    CUDA_CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal));
    int C = From;
    for (int I = 0; I < Length; ++I, C = 1 - C)
      step(C);
    if (WithCheck)
      check(1 - C, HResidual);
    CUDA_CHECK(cudaStreamEndCapture(S, &Graph));
    CUDA_CHECK(cudaGraphInstantiate(&Exec, Graph, 0));
    CUDA_CHECK(cudaGraphDestroy(Graph));
    Graphs.push_back({{Length, From, WithCheck}, Exec});
    return Exec;
  };
  auto asFloat = [](unsigned Bits) {
    float Residual;
    std::memcpy(&Residual, &Bits, sizeof Residual);
    return Residual;
  };
  // Runs Steps steps; returns the last residual read back.
  auto run = [&](int Steps) {
    float Residual = -1.0f;
    if (UseGraphs) {
      for (int Done = 0; Done < Steps;) {
        int Length = std::min(kHeatCheckEvery, Steps - Done);
        if (!Split.empty()) { // pieces, then the check as plain operations
          int Piece = 0, C = Cur;
          for (size_t K = 0; Piece < Length; ++K) {
            int L = K < Split.size() ? std::min(Split[K], Length - Piece)
                                     : Length - Piece;
            CUDA_CHECK(cudaGraphLaunch(graphOf(L, C, false), S));
            C = L % 2 ? 1 - C : C;
            Piece += L;
          }
          check(1 - C, HResidual);
        } else
          CUDA_CHECK(cudaGraphLaunch(graphOf(Length, Cur), S));
        CUDA_CHECK(cudaStreamSynchronize(S));
        Residual = asFloat(*HResidual);
        Done += Length;
        Cur = Length % 2 ? 1 - Cur : Cur;
      }
    } else {
      for (int Step = 1; Step <= Steps; ++Step) {
        step(Cur);
        if (Step % kHeatCheckEvery == 0 || Step == Steps) {
          unsigned Bits = 0;
          check(Cur, &Bits);
          CUDA_CHECK(cudaStreamSynchronize(S));
          Residual = asFloat(Bits);
        }
        Cur = 1 - Cur;
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(S));
    CUDA_CHECK(cudaGetLastError());
    return Residual;
  };
  std::vector<float> Field(Cells);
  auto download = [&] {
    CUDA_CHECK(cudaMemcpy(Field.data(), D[Cur], Cells * sizeof(float),
                          cudaMemcpyDeviceToHost));
  };

  // The check: a short run, bit for bit against the CPU.
  const int CheckSteps = int(
      std::max<size_t>(2, std::min<size_t>(200, (size_t(1) << 24) / Cells)));
  reset();
  float Residual = run(CheckSteps);
  download();
  std::vector<float> Expected = Initial;
  float ExpectedRes = heatReference(N, CheckSteps, Expected);
  long long At = InteriorOnly
                     ? -1
                     : firstBitDifference(Field.data(), Expected.data(), Cells);
  if (At >= 0)
    fail(std::string("heat ") + Variant + " " + std::to_string(N) + ": after " +
         std::to_string(CheckSteps) + " steps cell " + std::to_string(At) +
         " is " + std::to_string(Field[At]) + ", expected " +
         std::to_string(Expected[At]));
  if (!InteriorOnly && Residual != ExpectedRes)
    fail(std::string("heat ") + Variant + " " + std::to_string(N) +
         ": residual " + std::to_string(Residual) + ", expected " +
         std::to_string(ExpectedRes));
  if (!InteriorOnly)
    std::fprintf(stderr, "# heat %s %zu: %d steps match the CPU bit for bit\n",
                 Variant, N, CheckSteps);
  if (UseGraphs && !Split.empty()) { // the pieces: a segment's, run once
    run(std::min(kHeatCheckEvery, Steps));
  } else if (UseGraphs) { // made before the timed runs, as an application
    graphOf(std::min(kHeatCheckEvery, Steps), 0);
    if (int Tail = Steps % kHeatCheckEvery; Tail && Steps > kHeatCheckEvery)
      graphOf(Tail, 0);
  }

  std::vector<double> Ms;
  std::uint64_t Checksum = 0;
  for (int R = 0; R < HeatReps; ++R) {
    reset();
    double T0 = nowMs();
    Residual = run(Steps);
    double T1 = nowMs();
    Ms.push_back((T1 - T0) / Steps);
    download();
    std::uint64_t Sum = fieldChecksum(Field.data(), Cells);
    if (R > 0 && Sum != Checksum)
      fail(std::string("heat ") + Variant + " " + std::to_string(N) +
           ": two runs end on different fields");
    Checksum = Sum;
  }
  // Where the CPU is quick enough, the timed runs' field too.
  if (!InteriorOnly && Cells * Steps <= (size_t(1) << 26)) {
    Expected = Initial;
    ExpectedRes = heatReference(N, Steps, Expected);
    if (firstBitDifference(Field.data(), Expected.data(), Cells) >= 0 ||
        Residual != ExpectedRes)
      fail(std::string("heat ") + Variant + " " + std::to_string(N) +
           ": after " + std::to_string(Steps) +
           " steps the field differs from the CPU");
  }
  Summary T = summarize(Ms);
  printRow("heat", Variant, N, kHeatBlockX * kHeatBlockY, Grid.x * Grid.y, T,
           8.0 * Cells / (T.Median * 1e6));
  std::fprintf(stderr, "checksum,heat,%s,%zu,%d,%016llx,%.9g\n", Variant, N,
               Steps, (unsigned long long)Checksum, Residual);
  for (auto &[Key, Exec] : Graphs)
    CUDA_CHECK(cudaGraphExecDestroy(Exec));
  for (float *P : D)
    CUDA_CHECK(cudaFree(P));
  CUDA_CHECK(cudaFree(DResidual));
  CUDA_CHECK(cudaFreeHost(HResidual));
  if (Parallel) {
    CUDA_CHECK(cudaEventDestroy(Fork));
    CUDA_CHECK(cudaEventDestroy(Join));
    CUDA_CHECK(cudaStreamDestroy(Side));
  }
}

//===----------------------------------------------------------------------===//
// Host-data transfers
//===----------------------------------------------------------------------===//

void benchTransfer(cudaStream_t S) {
  const size_t N = kTransferN, Bytes = N * sizeof(float);
  const unsigned Grid = unsigned((N + 255) / 256);
  const int Warmups = 3;
  std::vector<float> X(N), Y0(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = transferX(I);
    Y0[I] = transferY0(I);
  }
  float *PX = nullptr, *PY = nullptr, *DX = nullptr, *DY = nullptr;
  CUDA_CHECK(cudaMallocHost(&PX, Bytes));
  CUDA_CHECK(cudaMallocHost(&PY, Bytes));
  CUDA_CHECK(cudaMalloc(&DX, Bytes));
  CUDA_CHECK(cudaMalloc(&DY, Bytes));
  std::memcpy(PX, X.data(), Bytes);

  // Y holds y0 + K*x after K iterations.
  auto check = [&](const char *Variant, const float *Got, int K) {
    for (size_t I = 0; I < N; ++I)
      if (Got[I] != Y0[I] + float(K) * X[I])
        fail(std::string("transfer ") + Variant + ": y[" + std::to_string(I) +
             "] is " + std::to_string(Got[I]) + " after " + std::to_string(K) +
             " iterations, expected " +
             std::to_string(Y0[I] + float(K) * X[I]));
  };
  auto measure = [&](const char *Variant, float *HostY,
                     const std::function<void()> &Iteration) {
    std::memcpy(HostY, Y0.data(), Bytes);
    for (int W = 0; W < Warmups; ++W)
      Iteration();
    CUDA_CHECK(cudaGetLastError());
    check(Variant, HostY, Warmups);
    std::vector<double> Ms;
    for (int R = 0; R < TransferReps; ++R) {
      double T0 = nowMs();
      Iteration();
      Ms.push_back(nowMs() - T0);
    }
    CUDA_CHECK(cudaGetLastError());
    check(Variant, HostY, Warmups + TransferReps);
    Summary T = summarize(Ms);
    printRow("transfer", Variant, N, 256, Grid, T,
             3.0 * Bytes / (T.Median * 1e6));
  };

  measure("cuda-pageable", Y.data(), [&] {
    CUDA_CHECK(cudaMemcpy(DX, X.data(), Bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(DY, Y.data(), Bytes, cudaMemcpyHostToDevice));
    addKernel<<<Grid, 256>>>(DX, DY, N);
    CUDA_CHECK(cudaMemcpy(Y.data(), DY, Bytes, cudaMemcpyDeviceToHost));
  });
  measure("cuda-pinned", PY, [&] {
    CUDA_CHECK(cudaMemcpyAsync(DX, PX, Bytes, cudaMemcpyHostToDevice, S));
    CUDA_CHECK(cudaMemcpyAsync(DY, PY, Bytes, cudaMemcpyHostToDevice, S));
    addKernel<<<Grid, 256, 0, S>>>(DX, DY, N);
    CUDA_CHECK(cudaMemcpyAsync(PY, DY, Bytes, cudaMemcpyDeviceToHost, S));
    CUDA_CHECK(cudaStreamSynchronize(S));
  });
  CUDA_CHECK(cudaFreeHost(PX));
  CUDA_CHECK(cudaFreeHost(PY));
  CUDA_CHECK(cudaFree(DX));
  CUDA_CHECK(cudaFree(DY));
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

void benchAlloc(cudaStream_t S) {
  const size_t N = size_t(1) << 20, Bytes = N * sizeof(float);
  // A pattern written to the last float of an allocation and read back.
  auto check = [&](const char *Variant, float *P) {
    float Got = 0.0f;
    CUDA_CHECK(cudaMemsetAsync(P, 0x3f, Bytes, S));
    CUDA_CHECK(cudaMemcpyAsync(&Got, P + N - 1, sizeof Got,
                               cudaMemcpyDeviceToHost, S));
    CUDA_CHECK(cudaStreamSynchronize(S));
    unsigned Bits;
    std::memcpy(&Bits, &Got, sizeof Bits);
    if (Bits != 0x3f3f3f3fu)
      fail(std::string("alloc ") + Variant + ": memory does not hold a write");
  };
  auto measure = [&](const char *Variant, int PerRun,
                     const std::function<void()> &Run) {
    Run(); // warm-up
    std::vector<double> Ms;
    for (int R = 0; R < Reps; ++R) {
      double T0 = nowMs();
      Run();
      Ms.push_back((nowMs() - T0) / PerRun);
    }
    CUDA_CHECK(cudaGetLastError());
    printRow("alloc", Variant, N, 0, 0, summarize(Ms), 0.0);
  };

  {
    float *P = nullptr;
    CUDA_CHECK(cudaMalloc(&P, Bytes));
    check("cuda-malloc", P);
    CUDA_CHECK(cudaFree(P));
  }
  measure("cuda-malloc", 1000, [&] {
    for (int I = 0; I < 1000; ++I) {
      float *P = nullptr;
      CUDA_CHECK(cudaMalloc(&P, Bytes));
      CUDA_CHECK(cudaFree(P));
    }
  });

  int Dev = 0;
  CUDA_CHECK(cudaGetDevice(&Dev));
  cudaMemPool_t Pool;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&Pool, Dev));
  std::uint64_t Threshold = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(Pool, cudaMemPoolAttrReleaseThreshold,
                                     &Threshold));
  {
    float *P = nullptr;
    CUDA_CHECK(cudaMallocAsync(&P, Bytes, S));
    check("cuda-mallocasync", P);
    CUDA_CHECK(cudaFreeAsync(P, S));
  }
  measure("cuda-mallocasync", 10000, [&] {
    for (int I = 0; I < 10000; ++I) {
      float *P = nullptr;
      CUDA_CHECK(cudaMallocAsync(&P, Bytes, S));
      CUDA_CHECK(cudaFreeAsync(P, S));
    }
    CUDA_CHECK(cudaStreamSynchronize(S));
  });
}

void usage(const char *Argv0) {
  std::fprintf(
      stderr,
      "usage: %s [--only tiny|heat|heat-floor|transfer|alloc] [--reps N] "
      "[--steps S] [--heat-reps R] [--transfer-reps T]\n",
      Argv0);
  std::exit(2);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Only;
  for (int A = 1; A < Argc; ++A) {
    std::string Arg = Argv[A];
    if (A + 1 >= Argc)
      usage(Argv[0]);
    if (Arg == "--only")
      Only = Argv[++A];
    else if (Arg == "--reps")
      Reps = std::atoi(Argv[++A]);
    else if (Arg == "--steps")
      Steps = std::atoi(Argv[++A]);
    else if (Arg == "--heat-reps")
      HeatReps = std::atoi(Argv[++A]);
    else if (Arg == "--transfer-reps")
      TransferReps = std::atoi(Argv[++A]);
    else
      usage(Argv[0]);
  }
  if (Reps < 1 || Steps < 1 || HeatReps < 1 || TransferReps < 1)
    usage(Argv[0]);

  CUDA_CHECK(cudaSetDevice(0));
  cudaDeviceProp Prop;
  CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  std::fprintf(stderr, "# device: %s, %d SMs, cc %d.%d\n", Prop.name,
               Prop.multiProcessorCount, Prop.major, Prop.minor);
  std::fprintf(stderr,
               "# reps = %d, heat: %d steps x %d runs, transfer: %d "
               "iterations\n",
               Reps, Steps, HeatReps, TransferReps);
  cudaStream_t S;
  CUDA_CHECK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));

  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  if (Only.empty() || Only == "tiny")
    benchTiny(S);
  if (Only.empty() || Only == "heat")
    for (size_t N : {256, 1024, 4096, 8192})
      for (bool UseGraphs : {false, true})
        benchHeat(S, N, UseGraphs);
  if (Only == "heat-floor")
    for (size_t N : {256, 1024, 4096, 8192}) {
      benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/true);
      benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/false,
                /*Parallel=*/true);
      for (int Fused : {1, 2})
        benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/false,
                  /*Parallel=*/false, /*Coarsen=*/1, /*Pdl=*/false,
                  /*Restrict=*/false, /*Ilp=*/false, Fused);
      for (bool UseGraphs : {false, true})
        benchHeat(S, N, UseGraphs, /*InteriorOnly=*/false, /*Parallel=*/false,
                  /*Coarsen=*/1, /*Pdl=*/true);
      if (std::getenv("HEAT_COARSEN"))
        for (int K : {2, 4, 8})
          for (bool Parallel : {false, true})
            benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/false,
                      Parallel, K);
      if (std::getenv("HEAT_RESTRICT"))
        for (int K : {1, 2, 4, 8})
          benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/false,
                    /*Parallel=*/false, K, /*Pdl=*/false, /*Restrict=*/true);
      if (std::getenv("HEAT_RESTRICT"))
        for (int K : {2, 4, 8})
          for (bool Parallel : {false, true})
            benchHeat(S, N, /*UseGraphs=*/true, /*InteriorOnly=*/false,
                      Parallel, K, /*Pdl=*/false, /*Restrict=*/true,
                      /*Ilp=*/true);
    }
  if (Only.empty() || Only == "transfer")
    benchTransfer(S);
  if (Only.empty() || Only == "alloc")
    benchAlloc(S);
  CUDA_CHECK(cudaStreamDestroy(S));
  return 0;
}
