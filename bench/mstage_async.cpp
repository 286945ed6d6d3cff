// mstage's side of the asynchronous-API benchmarks (issue 14); the nvcc
// baselines are bench/cuda/async_baselines.cu, with the same variants, sizes,
// checks and CSV (its header comment describes them in full).
//
//   mstage_async [--only tiny|heat|heat-staged|transfer|alloc|order|
//                       order-host]
//                [--reps N] [--steps S] [--heat-reps R] [--transfer-reps T]
//   mstage_async --quick      tiny sizes and few repetitions; also on the CPU
//                             back end (MSTAGE_BACKEND=cpu), as a smoke test
//
// tiny-launch, per kernel (10,000 a run):
//   mstage-async   k(dv) 10,000 times, then current_stream().synchronize()
//   mstage-graph   mstage::capture of 100 k.on(s)(dv), launched 100 times
//   mstage-sync    k(dv) and current_stream().synchronize(), 10,000 times
//   mstage-future  mstage::async(launch::kernel, k, dv).wait(), 10,000 times
// heat, per step: mstage (the same three kernels; the residual is reset with
//   fill(0) and read back with get(0)); mstage-staged (heat-staged) the same
//   kernels with the field's edge staged, as an mstage user writes them
// transfer, per iteration of y += x on 2^20 floats of host data:
//   mstage-vector  k(x, y) on std::vectors (copies in and back)
//   mstage-pinned  k(x, y) on pinned_vectors
//   mstage-dv      dx.upload(x), dy.upload(y), k(dx, dy), dy.download(y)
// alloc, per allocate + free: mstage-device-vector, device_vector<float>(2^20)
//   constructed and destroyed 10,000 times, then one synchronize.
// stream-order, per iteration of two kernels on two streams in turn (5,000
//   a run; mstage only, for MSTAGE_STREAM_ORDER=auto's cost):
//   mstage-events  ordered by an event each way
//   mstage-auto    not ordered by the program (only under auto)
//   order-host gives the same as stream-order-host rows: the host's time to
//   enqueue an iteration, the results not read (the fake driver runs none).
//
// Every variant checks its result as the baseline does (the heat field bit
// for bit against the CPU) before its times count; FAIL and exit status 1 if
// it is wrong. Times are host wall times; mstage's per-launch event timing
// (mstage_rt_time_launches) stays off, since it would add work to each launch.
#include "AsyncReference.h"
#include "HeatKernels.h"

#include <mstage.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace mstage;
using namespace asyncbench;

namespace {

int Reps = 7, HeatReps = 3, TransferReps = 50, Steps = 1000;
bool Quick = false;
int TinyLaunches = kTinyLaunches, GraphKernels = kGraphKernels;
int AllocsPerRun = 10000;
size_t TransferN = kTransferN;
std::vector<size_t> HeatSizes = {256, 1024, 4096, 8192};

//===----------------------------------------------------------------------===//
// Back-to-back tiny launches
//===----------------------------------------------------------------------===//

void benchTiny() {
  device_vector<int> D(kTinyN);
  auto K = kernel(
      [](auto &v) {
        unsigned i = Thread::get().global.x;
        v[i] = v[i] + 1;
      },
      1, kTinyN);

  // Runs Run() once to warm up and Reps times timed, each from zeros, and
  // checks after each that every element counts Kernels launches.
  auto measure = [&](const char *Variant, int Kernels,
                     const std::function<void()> &Run) {
    std::vector<double> Ms;
    for (int R = 0; R <= Reps; ++R) {
      D.fill(0);
      current_stream().synchronize();
      // Steady state: the warm-up's specializations are in use (cold starts
      // are bench/jit_cold.cpp's).
      jit_wait();
      double T0 = nowMs();
      Run();
      double T1 = nowMs();
      std::vector<int> Host = D.download();
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

  measure("mstage-async", TinyLaunches, [&] {
    for (int L = 0; L < TinyLaunches; ++L)
      K(D);
    current_stream().synchronize();
  });

  {
    stream S;
    // One launch on S first, as the CUDA side has D ready before its
    // capture: D's first use on a stream other than its own orders that
    // stream after D's allocation, which is no part of what is timed.
    K.on(S)(D);
    S.synchronize();
    graph G = capture(S, [&] {
      for (int L = 0; L < GraphKernels; ++L)
        K.on(S)(D);
    });
    const int Replays = TinyLaunches / GraphKernels;
    measure("mstage-graph", Replays * GraphKernels, [&] {
      for (int R = 0; R < Replays; ++R)
        G.launch(S);
      S.synchronize();
    });
  }

  measure("mstage-sync", TinyLaunches, [&] {
    for (int L = 0; L < TinyLaunches; ++L) {
      K(D);
      current_stream().synchronize();
    }
  });
  measure("mstage-future", TinyLaunches, [&] {
    for (int L = 0; L < TinyLaunches; ++L)
      mstage::async(launch::kernel, K, D).wait();
  });
}

//===----------------------------------------------------------------------===//
// 2-D heat equation
//===----------------------------------------------------------------------===//

// Stage: Unstaged ("mstage", N a run-time value as in nvcc's kernels) or
// Staged ("mstage-staged", --only heat-staged: the kernels stage N).
template <class Stage = Unstaged> void benchHeat(size_t N) {
  const char *Variant =
      std::is_same_v<Stage, Staged> ? "mstage-staged" : "mstage";
  const size_t Cells = N * N;
  const std::vector<float> Initial = heatInitial(N);
  device_vector<float> D[2] = {device_vector<float>(Cells),
                               device_vector<float>(Cells)};
  device_vector<unsigned> DResidual(1);
  const dim3 Grid(unsigned((N + kHeatBlockX - 1) / kHeatBlockX),
                  unsigned((N + kHeatBlockY - 1) / kHeatBlockY));
  auto Kernels = heatKernels<Stage>(N); // lambdas below capture them
  auto &Interior = std::get<0>(Kernels);
  auto &Boundary = std::get<1>(Kernels);
  auto &Residual = std::get<2>(Kernels);

  int Cur = 0; // the buffer that holds the field
  auto reset = [&] {
    for (device_vector<float> &V : D)
      V.upload(Initial);
    Cur = 0;
  };
  // Runs Steps steps; returns the last residual read back.
  auto run = [&](int Steps) {
    float Res = -1.0f;
    for (int Step = 1; Step <= Steps; ++Step) {
      Interior(std::as_const(D[Cur]), D[1 - Cur]);
      Boundary(D[1 - Cur]);
      if (Step % kHeatCheckEvery == 0 || Step == Steps) {
        DResidual.fill(0u);
        Residual(std::as_const(D[1 - Cur]), std::as_const(D[Cur]), DResidual);
        unsigned Bits = DResidual.get(0);
        std::memcpy(&Res, &Bits, sizeof Res);
      }
      Cur = 1 - Cur;
    }
    current_stream().synchronize();
    return Res;
  };
  std::vector<float> Field;

  // The check: a short run, bit for bit against the CPU.
  const int CheckSteps = int(
      std::max<size_t>(2, std::min<size_t>(200, (size_t(1) << 24) / Cells)));
  reset();
  float Res = run(CheckSteps);
  jit_wait(); // the timed runs below use the specialized code
  D[Cur].download(Field);
  std::vector<float> Expected = Initial;
  float ExpectedRes = heatReference(N, CheckSteps, Expected);
  long long At = firstBitDifference(Field.data(), Expected.data(), Cells);
  if (At >= 0)
    fail(std::string("heat ") + Variant + " " + std::to_string(N) + ": after " +
         std::to_string(CheckSteps) + " steps cell " + std::to_string(At) +
         " is " + std::to_string(Field[At]) + ", expected " +
         std::to_string(Expected[At]));
  if (Res != ExpectedRes)
    fail(std::string("heat ") + Variant + " " + std::to_string(N) +
         ": residual " + std::to_string(Res) + ", expected " +
         std::to_string(ExpectedRes));
  std::fprintf(stderr, "# heat %zu: %d steps match the CPU bit for bit\n", N,
               CheckSteps);

  std::vector<double> Ms;
  std::uint64_t Checksum = 0;
  for (int R = 0; R < HeatReps; ++R) {
    reset();
    current_stream().synchronize();
    double T0 = nowMs();
    Res = run(Steps);
    double T1 = nowMs();
    Ms.push_back((T1 - T0) / Steps);
    D[Cur].download(Field);
    std::uint64_t Sum = fieldChecksum(Field.data(), Cells);
    if (R > 0 && Sum != Checksum)
      fail(std::string("heat ") + Variant + " " + std::to_string(N) +
           ": two runs end on different fields");
    Checksum = Sum;
  }
  // Where the CPU is quick enough, the timed runs' field too.
  if (Cells * Steps <= (size_t(1) << 26)) {
    Expected = Initial;
    ExpectedRes = heatReference(N, Steps, Expected);
    if (firstBitDifference(Field.data(), Expected.data(), Cells) >= 0 ||
        Res != ExpectedRes)
      fail(std::string("heat ") + Variant + " " + std::to_string(N) +
           ": after " + std::to_string(Steps) +
           " steps the field differs from the CPU");
  }
  Summary T = summarize(Ms);
  printRow("heat", Variant, N, kHeatBlockX * kHeatBlockY, Grid.x * Grid.y, T,
           8.0 * Cells / (T.Median * 1e6));
  std::fprintf(stderr, "checksum,heat,%s,%zu,%d,%016llx,%.9g\n", Variant, N,
               Steps, (unsigned long long)Checksum, Res);
}

//===----------------------------------------------------------------------===//
// Host-data transfers
//===----------------------------------------------------------------------===//

void benchTransfer() {
  const size_t N = TransferN, Bytes = N * sizeof(float);
  const unsigned Grid = unsigned((N + 255) / 256);
  const int Warmups = 3;
  std::vector<float> X(N), Y0(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = transferX(I);
    Y0[I] = transferY0(I);
  }
  pinned_vector<float> PX(X.begin(), X.end()), PY(N);
  device_vector<float> DX(N), DY(N);
  auto Add = kernel(
      [](const auto &x, auto &y) {
        size_t i = Thread::get().global.x;
        if (i < x.size())
          y[i] = y[i] + x[i];
      },
      Grid, 256);

  // The host y holds y0 + K*x after K iterations.
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
    check(Variant, HostY, Warmups);
    std::vector<double> Ms;
    for (int R = 0; R < TransferReps; ++R) {
      double T0 = nowMs();
      Iteration();
      Ms.push_back(nowMs() - T0);
    }
    check(Variant, HostY, Warmups + TransferReps);
    Summary T = summarize(Ms);
    printRow("transfer", Variant, N, 256, Grid, T,
             3.0 * Bytes / (T.Median * 1e6));
  };

  measure("mstage-vector", Y.data(), [&] { Add(std::as_const(X), Y); });
  measure("mstage-pinned", PY.data(), [&] { Add(std::as_const(PX), PY); });
  measure("mstage-dv", Y.data(), [&] {
    DX.upload(X);
    DY.upload(Y);
    Add(std::as_const(DX), DY);
    DY.download(Y);
  });
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

void benchAlloc() {
  const size_t N = size_t(1) << 20;
  {
    device_vector<float> V(N, 1.5f);
    if (V.get(N - 1) != 1.5f)
      fail("alloc mstage-device-vector: memory does not hold a write");
  }
  auto Run = [&] {
    for (int I = 0; I < AllocsPerRun; ++I) {
      device_vector<float> V(N);
    }
    current_stream().synchronize();
  };
  Run(); // warm-up
  std::vector<double> Ms;
  for (int R = 0; R < Reps; ++R) {
    double T0 = nowMs();
    Run();
    Ms.push_back((nowMs() - T0) / AllocsPerRun);
  }
  printRow("alloc", "mstage-device-vector", N, 0, 0, summarize(Ms), 0.0);
}

//===----------------------------------------------------------------------===//
// Two streams in turn: what MSTAGE_STREAM_ORDER=auto costs (issue 34)
//===----------------------------------------------------------------------===//

// Per iteration a kernel on S1 increments A, then one on S2 adds A into B;
// each must wait for the other stream's last kernel. mstage-events orders
// them with events, as a program must without MSTAGE_STREAM_ORDER=auto;
// mstage-auto, run only under auto (where it is correct), leaves the waits
// to mstage. Events around the loop time it on the stream; with HostOnly
// (--only order-host) the host's time to enqueue it is taken instead and the
// results are not read, so that the fake driver, which runs no kernels, can
// measure the host path.
void benchStreamOrder(bool HostOnly) {
  const char *Setting = std::getenv("MSTAGE_STREAM_ORDER");
  const bool Auto = Setting && std::string(Setting) == "auto";
  const int Iterations = TinyLaunches / 2;
  device_vector<int> A(kTinyN), B(kTinyN);
  stream S1, S2;
  auto Inc = kernel(
      [](auto &a) {
        unsigned i = Thread::get().global.x;
        a[i] = a[i] + 1;
      },
      1, kTinyN);
  auto Add = kernel(
      [](const auto &a, auto &b) {
        unsigned i = Thread::get().global.x;
        b[i] = b[i] + a[i];
      },
      1, kTinyN);
  auto measure = [&](const char *Variant, bool Events) {
    std::vector<double> Ms;
    for (int R = 0; R <= Reps; ++R) {
      A.fill(0);
      B.fill(0);
      synchronize();
      jit_wait();
      double T0 = nowMs();
      event Start = S1.record();
      for (int L = 0; L < Iterations; ++L) {
        Inc.on(S1)(A);
        if (Events)
          S2.wait(S1.record());
        Add.on(S2)(std::as_const(A), B);
        if (Events)
          S1.wait(S2.record());
      }
      event End = S2.record();
      double T1 = nowMs();
      End.synchronize();
      synchronize();
      if (R == 0)
        continue; // the warm-up
      if (HostOnly) {
        Ms.push_back((T1 - T0) / Iterations);
        continue;
      }
      Ms.push_back(double(elapsed_ms(Start, End)) / Iterations);
      std::vector<int> HostA = A.download(), HostB = B.download();
      const int WantB = Iterations * (Iterations + 1) / 2;
      for (unsigned I = 0; I < kTinyN; ++I)
        if (HostA[I] != Iterations || HostB[I] != WantB)
          fail(std::string("stream-order ") + Variant + ": element " +
               std::to_string(I) + " is " + std::to_string(HostA[I]) + ", " +
               std::to_string(HostB[I]) + ", expected " +
               std::to_string(Iterations) + ", " + std::to_string(WantB));
    }
    printRow(HostOnly ? "stream-order-host" : "stream-order", Variant, kTinyN,
             kTinyN, 1, summarize(Ms), 0.0);
  };
  measure("mstage-events", true);
  if (Auto)
    measure("mstage-auto", false);
}

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: mstage_async [--quick] [--only tiny|heat|heat-staged|"
      "transfer|alloc|order|order-host] [--reps N] [--steps S] [--heat-reps R] "
      "[--transfer-reps T]\n");
  std::exit(2);
}

} // namespace

int main(int Argc, char **Argv) {
  // --quick first: it sets the defaults that the other options change.
  for (int A = 1; A < Argc; ++A)
    if (!std::strcmp(Argv[A], "--quick")) {
      // Small enough for the CPU back end, but with every path taken: graph
      // replays, two residual checks and a last one in the heat loop.
      Quick = true;
      Reps = 2;
      HeatReps = 2;
      TransferReps = 3;
      Steps = 250;
      TinyLaunches = 100;
      GraphKernels = 10;
      AllocsPerRun = 100;
      TransferN = 4096;
      HeatSizes = {32, 64};
    }
  std::string Only;
  for (int A = 1; A < Argc; ++A) {
    std::string Arg = Argv[A];
    if (Arg == "--quick")
      continue;
    if (A + 1 >= Argc)
      usage();
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
      usage();
  }
  if (Reps < 1 || Steps < 1 || HeatReps < 1 || TransferReps < 1)
    usage();
  if (mstage_rt_executes() != 1) {
    std::fprintf(stderr, "mstage_async: kernels do not run here (%s)\n",
                 mstage_rt_executes() < 0 ? mstage_rt_last_error()
                                          : "PTX-only mode");
    return 1;
  }
  if (!Quick && std::strcmp(mstage_rt_backend(), "cuda") != 0) {
    std::fprintf(stderr,
                 "mstage_async: needs a GPU (the %s back end runs "
                 "only --quick)\n",
                 mstage_rt_backend());
    return 1;
  }
  std::fprintf(stderr, "# back end: %s%s\n", mstage_rt_backend(),
               Quick ? ", quick" : "");

  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  if (Only.empty() || Only == "tiny")
    benchTiny();
  if (Only.empty() || Only == "heat")
    for (size_t N : HeatSizes)
      benchHeat(N);
  if (Only == "heat-staged")
    for (size_t N : HeatSizes)
      benchHeat<Staged>(N);
  if (Only.empty() || Only == "transfer")
    benchTransfer();
  if (Only.empty() || Only == "alloc")
    benchAlloc();
  if (Only.empty() || Only == "order")
    benchStreamOrder(false);
  if (Only == "order-host")
    benchStreamOrder(true);
  return 0;
}
