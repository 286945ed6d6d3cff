// mstage's side of the benchmarks: the paper's reduction (Listing 4) and
// n-body (Listings 5 and 6), staged and unstaged, timed with CUDA events
// around each launch (the kernel only: the data stays on the device).
//
//   mstage_bench reduce [--reps N] [--grid G]
//   mstage_bench nbody [--reps N] [--n N]
//   mstage_bench saxpy [--reps N]       y = a*x + y on 2^27 floats
//   mstage_bench nbody --cpu 1 [--reps N] [--warmup W] [--n N]
//
// --cpu 1 runs on the CPU back end (MSTAGE_BACKEND=cpu) instead of asking
// for a GPU: the n-body at 2^12 to 2^14 unless --n says, benchmark
// "nbody-cpu", each time the wall time of one launch (bench/cpu_nbody.sh).
//
// Prints CSV: benchmark,variant,n,block,grid,median_ms,min_ms,gbps. Each
// variant's result is checked against the CPU before its times count.
#include "Listing4.h"
#include "NbodyReference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace mstage;

namespace {

int Reps = 100;
unsigned ReduceGrid = 1056;
size_t OnlyN = 0; // --n: one size only (for profiling)
int Warmups = 5;
bool OnCpu = false; // --cpu 1: the CPU back end

struct Timing {
  double Median, Min;
};

// Launches Launch() Reps times after the warm-ups (the first compiles, or on
// the CPU reads the kernel's bitcode once).
template <class F> Timing timeLaunches(F Launch) {
  for (int I = 0; I < Warmups; ++I)
    Launch();
  std::vector<double> Ms;
  for (int I = 0; I < Reps; ++I) {
    Launch();
    Ms.push_back(mstage_rt_last_kernel_ms());
  }
  std::sort(Ms.begin(), Ms.end());
  return {Ms[Ms.size() / 2], Ms.front()};
}

[[noreturn]] void failCheck(const std::string &What) {
  std::fprintf(stderr, "FAIL %s\n", What.c_str());
  std::exit(1);
}

template <class Stage> void benchReduce(size_t N, Stage stage) {
  const int Block = 256;
  std::vector<int> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = int(I % 7) - 3;
  long long Expected = std::accumulate(Host.begin(), Host.end(), 0LL);
  // Two copies of the input, used in turn (no launch finds its data in L2).
  device_vector<int> Ins[2] = {device_vector<int>(Host),
                               device_vector<int>(Host)};
  device_vector<int> Out(ReduceGrid);
  auto K = kernel(listing4Kernel(Block, stage), ReduceGrid, Block,
                  Block * sizeof(int));
  K(Ins[1], Out);
  std::vector<int> Partial = Out.download();
  long long Got = std::accumulate(Partial.begin(), Partial.end(), 0LL);
  if (Got != Expected)
    failCheck(std::string("reduce ") + Stage::name + " n=" + std::to_string(N) +
              ": " + std::to_string(Got) + ", expected " +
              std::to_string(Expected));
  unsigned Turn = 0;
  Timing T = timeLaunches([&] { K(Ins[Turn++ & 1], Out); });
  std::printf("reduce,mstage-%s,%zu,%d,%u,%.5f,%.5f,%.2f\n", Stage::name, N,
              Block, ReduceGrid, T.Median, T.Min,
              N * sizeof(int) / (T.Median * 1e6));
}

template <class Stage> void benchNbody(size_t N, Stage stage) {
  const unsigned Block = 256;
  std::vector<data_t> Pos, Vel;
  randomBodies(N, Pos, Vel);
  device_vector<data_t> DPos(Pos), DNPos(N), DVel(Vel);
  unsigned Grid = unsigned((N + Block - 1) / Block);
  auto K = kernel(nbodyKernel(stage), Grid, Block, Block * sizeof(data_t));
  K(DPos, DNPos, DVel);
  std::vector<data_t> NPos = DNPos.download(), NVel = DVel.download();
  size_t WorstAt;
  double Err = worstNbodyError(Pos, Vel, NPos, NVel,
                               std::max<size_t>(1, N / 1000), WorstAt);
  if (!(Err < 1e-3))
    failCheck(std::string("nbody ") + Stage::name + " n=" + std::to_string(N) +
              " body " + std::to_string(WorstAt) + ": relative error " +
              std::to_string(Err));
  Timing T = timeLaunches([&] { K(DPos, DNPos, DVel); });
  std::printf("%s,mstage-%s,%zu,%u,%u,%.5f,%.5f,%.2f\n",
              OnCpu ? "nbody-cpu" : "nbody", Stage::name, N, Block, Grid,
              T.Median, T.Min, double(N) * N / (T.Median * 1e6));
}

// y = a*x + y over 2^27 floats with a grid-stride loop, against the CPU.
// gbps counts the bytes moved: x and y read, y written (12 bytes a float).
void benchSaxpy() {
  const size_t N = size_t(1) << 27;
  const unsigned Threads = 256, Blocks = 2112;
  const float A = 1.5f;
  std::vector<float> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = float(I % 1000) * 0.001f;
    Y[I] = float(I % 777) * 0.002f;
  }
  device_vector<float> DXs[2] = {device_vector<float>(X),
                                 device_vector<float>(X)};
  device_vector<float> DYs[2] = {device_vector<float>(Y),
                                 device_vector<float>(Y)};
  device_vector<float> &DX = DXs[0], &DY = DYs[0];
  auto K = kernel(
      [A](const auto &x, auto &y) {
        size_t n = stage(x.size());
        for (size_t i = Thread::get().global.x; i < n;
             i += size_t(Grid::get().range.x) * Block::get().range.x)
          y[i] = A * x[i] + y[i];
      },
      Blocks, Threads);
  K(DX, DY);
  std::vector<float> Got = DY.download();
  for (size_t I = 0; I < N; I += 9973)
    if (std::fabs(Got[I] - (A * X[I] + Y[I])) > 1e-5f * (1 + std::fabs(Got[I])))
      failCheck("saxpy at " + std::to_string(I) + ": " +
                std::to_string(Got[I]) + ", expected " +
                std::to_string(A * X[I] + Y[I]));
  // Each launch adds A*x to y again: the work is the same every time. The
  // two pairs of arrays are used in turn.
  unsigned Turn = 0;
  Timing T = timeLaunches([&] {
    unsigned I = Turn++ & 1;
    K(DXs[I], DYs[I]);
  });
  std::printf("saxpy,mstage-staged,%zu,%u,%u,%.5f,%.5f,%.2f\n", N, Threads,
              Blocks, T.Median, T.Min, 12.0 * N / (T.Median * 1e6));
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return std::fprintf(stderr, "usage: mstage_bench reduce|nbody|saxpy "
                                "[--reps N] [--grid G]\n"),
           2;
  std::string What = Argv[1];
  for (int I = 2; I + 1 < Argc; I += 2) {
    if (!std::strcmp(Argv[I], "--reps"))
      Reps = std::atoi(Argv[I + 1]);
    else if (!std::strcmp(Argv[I], "--grid"))
      ReduceGrid = unsigned(std::atoi(Argv[I + 1]));
    else if (!std::strcmp(Argv[I], "--n"))
      OnlyN = std::strtoull(Argv[I + 1], nullptr, 0);
    else if (!std::strcmp(Argv[I], "--warmup"))
      Warmups = std::atoi(Argv[I + 1]);
    else if (!std::strcmp(Argv[I], "--cpu"))
      OnCpu = std::atoi(Argv[I + 1]) != 0;
  }
  if (OnCpu && std::strcmp(mstage_rt_backend(), "cpu") != 0) {
    std::fprintf(stderr, "mstage_bench: --cpu needs MSTAGE_BACKEND=cpu\n");
    return 1;
  }
  if (!OnCpu && std::strcmp(mstage_rt_backend(), "cuda") != 0) {
    std::fprintf(stderr, "mstage_bench: needs a GPU (%s)\n",
                 mstage_rt_executes() < 0 ? mstage_rt_last_error()
                                          : "launches would run on the CPU");
    return 1;
  }
  mstage_rt_time_launches(1);
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  if (What == "reduce") {
    for (size_t N : {size_t(1) << 27, (size_t(1) << 27) + 172}) {
      benchReduce(N, Staged{});
      benchReduce(N, Unstaged{});
    }
  } else if (What == "nbody") {
    std::vector<size_t> Sizes;
    // On the CPU a step at 2^14 takes a second or more: fewer sizes.
    for (int Log = OnCpu ? 12 : 10; Log <= (OnCpu ? 14 : 19); ++Log)
      Sizes.push_back(size_t(1) << Log);
    if (OnlyN)
      Sizes = {OnlyN};
    for (size_t N : Sizes) {
      benchNbody(N, Staged{});
      benchNbody(N, Unstaged{});
    }
  } else if (What == "saxpy") {
    benchSaxpy();
  } else {
    std::fprintf(stderr, "mstage_bench: unknown benchmark '%s'\n",
                 What.c_str());
    return 2;
  }
  return 0;
}
