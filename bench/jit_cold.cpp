// Cold starts with the zero-wait JIT: what a program waits for when its
// kernels' specializations are not cached anywhere. Each figure comes from a
// fresh process (run it with CUDA_CACHE_DISABLE=1 and an empty
// MSTAGE_CACHE_DIR; bench/run.sh does), with the CUDA context made first,
// as a program's first allocation makes it.
//
//   jit_cold listing4             first launch of the paper's Listing 4 (call
//                                 to kernel done), and when its specialized
//                                 code is first used
//   jit_cold heat N STEPS         the first STEPS steps of a 2-D heat equation
//                                 on N x N floats whose four kernels stage N
//                                 (bench/cuda/heat_cold.cu is nvcc's)
//   jit_cold threads T            T distinct cold specializations launched
//                                 from T threads at once, each waiting for
//                                 its compile (MSTAGE_JIT=sync)
//   jit_cold procs P              P processes started together on one cold
//                                 cache, each launching the same 4
//                                 specializations: how many compiles
//   jit_cold tiers N              Listing 4 over N ints, every launch timed
//                                 on the GPU: the median kernel time of the
//                                 generic code, tier 0 and tier 1
//                                 (MSTAGE_JIT_TIERS), and when each tier
//                                 came into use
//   jit_cold single LOOKUPS       a single-launch application, as rsbench
//                                 and lavaMD are: one long staged kernel of
//                                 LOOKUPS threads launched once; the
//                                 process's time from its start, and
//                                 whether the launch ran the generic code
//
// Prints CSV rows: jit-cold,variant,what,ms (and counts for procs). Every
// result is checked: the reductions against the exact sum, the heat field
// bit for bit against the CPU.
#include "AsyncReference.h"
#include "Listing4.h"

#include <mstage.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace mstage;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

[[noreturn]] void die(const std::string &What) {
  std::fprintf(stderr, "jit_cold: %s\n", What.c_str());
  std::exit(1);
}

// The process's start, as near as a program can take it: before main.
const Clock::time_point ProcessStart = Clock::now();

// The policy, and "-notiers" when MSTAGE_JIT_TIERS=off (tiers are on by
// default on a GPU).
const char *jitMode() {
  static const std::string Mode = [] {
    const char *M = std::getenv("MSTAGE_JIT");
    const char *T = std::getenv("MSTAGE_JIT_TIERS");
    bool Off = T && (!std::strcmp(T, "off") || !std::strcmp(T, "0"));
    return std::string(M && *M ? M : "auto") + (Off ? "-notiers" : "");
  }();
  return Mode.c_str();
}

void row(const char *What, double Ms) {
  std::printf("jit-cold,%s,%s,%.4f\n", jitMode(), What, Ms);
}

// mstage_rt_last_launch_source: 0 the in-memory cache (tier 1 once tiers
// are on), 4 the ahead-of-time generic code, 5 tier-0 code.
constexpr int MemorySource = 0, GenericSource = 4, Tier0Source = 5;

// Listing 4 over Size ints of 1 with Block threads: checks the sum.
struct Reduction {
  static constexpr unsigned Block = 256, Grid = 264;
  device_vector<int> In, Out;
  explicit Reduction(size_t Size)
      : In(std::vector<int>(Size, 1)), Out(Grid) {}
  auto kernelFor() const {
    return kernel(listing4Kernel(Block, Staged{}), Grid, Block,
                  Block * sizeof(int));
  }
  void check() {
    long long Sum = 0;
    for (int P : Out.download())
      Sum += P;
    if (Sum != (long long)In.size())
      die("Listing 4 summed " + std::to_string(Sum) + " of " +
          std::to_string(In.size()) + " ones");
  }
};

void listing4() {
  Reduction R(1 << 20);
  auto K = R.kernelFor();
  current_stream().synchronize(); // the context and the input are ready
  auto T0 = Clock::now();
  K(R.In, R.Out);
  current_stream().synchronize();
  double First = msSince(T0);
  int Source = mstage_rt_last_launch_source(nullptr);
  R.check();
  row("listing4-first-launch", First);
  // Launches while the code comes from From; returns when the last launch
  // returned (the first launch's time when it did not come from From).
  int Launches = 1;
  double Last = First;
  auto LaunchWhile = [&](int From, const char *Then) {
    while (Source == From) {
      if (msSince(T0) > 10000)
        die(std::string(Then) + " was not in use after 10 s");
      K(R.In, R.Out);
      current_stream().synchronize();
      Source = mstage_rt_last_launch_source(nullptr);
      Last = msSince(T0);
      ++Launches;
    }
    return Last;
  };
  double Specialized = LaunchWhile(GenericSource, "the specialization");
  R.check();
  row("listing4-specialized-in-use", Specialized);
  std::fprintf(stderr,
               "# listing4 (%s): first launch %.3f ms (%s), specialized code "
               "(%s) in use %.3f ms after the first call, at launch %d\n",
               jitMode(), First, Launches > 1 ? "generic" : "specialized",
               Source == Tier0Source ? "tier 0" : "tier 1", Specialized,
               Launches);
  // With tiers, until tier 1 (the code of the steady state) replaces it.
  double Tier1 = LaunchWhile(Tier0Source, "tier 1");
  R.check();
  row("listing4-tier1-in-use", Tier1);
}

double median(std::vector<double> V) {
  if (V.empty())
    return -1; // no launch ran that code
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

// Listing 4 over Size ints, each launch timed by the GPU's events until tier
// 1 is in use and 20 launches after: the kernel time of each kind of code.
void tiers(size_t Size) {
  Reduction R(Size);
  auto K = R.kernelFor();
  current_stream().synchronize();
  mstage_rt_time_launches(1);
  std::vector<double> Ms[6];
  double InUse[6] = {-1, -1, -1, -1, -1, -1};
  auto T0 = Clock::now();
  int Tier1Launches = 0;
  while (Tier1Launches < 20) {
    if (msSince(T0) > 10000)
      die("tier 1 was not in use after 10 s");
    K(R.In, R.Out);
    current_stream().synchronize();
    int Source = mstage_rt_last_launch_source(nullptr);
    if (Source < 0 || Source > 5)
      die("unknown launch source " + std::to_string(Source));
    if (InUse[Source] < 0)
      InUse[Source] = msSince(T0);
    Ms[Source].push_back(mstage_rt_last_kernel_ms());
    Tier1Launches += Source == MemorySource;
  }
  R.check();
  row("tiers-generic-kernel", median(Ms[GenericSource]));
  row("tiers-tier0-kernel", median(Ms[Tier0Source]));
  row("tiers-tier1-kernel", median(Ms[MemorySource]));
  row("tiers-tier0-in-use", InUse[Tier0Source]);
  row("tiers-tier1-in-use", InUse[MemorySource]);
  std::fprintf(stderr,
               "# tiers (%s): %zu ints, kernel ms generic %.4f (%zu), tier 0 "
               "%.4f (%zu), tier 1 %.4f (%zu)\n",
               jitMode(), Size, median(Ms[GenericSource]),
               Ms[GenericSource].size(), median(Ms[Tier0Source]),
               Ms[Tier0Source].size(), median(Ms[MemorySource]),
               Ms[MemorySource].size());
}

void heat(size_t N, int Steps) {
  using namespace asyncbench;
  const size_t Cells = N * N;
  const std::vector<float> Initial = heatInitial(N);
  device_vector<float> D[2] = {device_vector<float>(Initial),
                               device_vector<float>(Initial)};
  device_vector<unsigned> DResidual(1);
  const dim3 Grid(unsigned((N + kHeatBlockX - 1) / kHeatBlockX),
                  unsigned((N + kHeatBlockY - 1) / kHeatBlockY));
  const unsigned Edge = unsigned((N + kHeatThreads - 1) / kHeatThreads);
  auto Interior = kernel(
      [N](const auto &uold, auto &unew) {
        size_t n = stage(N);
        Thread T = Thread::get();
        size_t i = T.global.y, j = T.global.x;
        if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n)
          unew[i * n + j] =
              0.25f * (uold[(i - 1) * n + j] + uold[(i + 1) * n + j] +
                       uold[i * n + j + 1] + uold[i * n + j - 1]);
      },
      Grid, dim3(kHeatBlockX, kHeatBlockY));
  auto Columns = kernel(
      [N](auto &u) {
        size_t n = stage(N);
        size_t t = Thread::get().global.x;
        if (t < n) {
          u[t * n] = 1.0f;
          u[t * n + n - 1] = 0.0f;
        }
      },
      Edge, kHeatThreads);
  auto Rows = kernel(
      [N](auto &u) {
        size_t n = stage(N);
        size_t t = Thread::get().global.x;
        if (t > 0 && t < n) {
          u[t] = 0.0f;
          u[(n - 1) * n + t] = 0.0f;
        }
      },
      Edge, kHeatThreads);
  auto Residual = kernel(
      [N](const auto &a, const auto &b, auto &result) {
        size_t cells = stage(N * N);
        size_t stride = size_t(Grid::get().range.x) * Block::get().range.x;
        float m = 0.0f;
        for (size_t k = Thread::get().global.x; k < cells; k += stride)
          m = std::max(m, std::fabs(a[k] - b[k]));
        atomic_ref<unsigned>(result[0]).fetch_max(
            __builtin_bit_cast(unsigned, m));
      },
      heatResidualGrid(N), kHeatThreads);
  current_stream().synchronize();

  // JIT_COLD_STEPS=1: when each step's launches returned, and which code
  // the last of them ran (for finding where the first steps lose time).
  const bool StepTimes = std::getenv("JIT_COLD_STEPS") != nullptr;
  std::vector<std::pair<double, int>> Returned;
  Returned.reserve(StepTimes ? Steps : 0);
  auto T0 = Clock::now();
  int Cur = 0;
  float Res = -1.0f;
  for (int Step = 1; Step <= Steps; ++Step) {
    Interior(std::as_const(D[Cur]), D[1 - Cur]);
    Columns(D[1 - Cur]);
    Rows(D[1 - Cur]);
    if (Step % kHeatCheckEvery == 0 || Step == Steps) {
      DResidual.fill(0u);
      Residual(std::as_const(D[1 - Cur]), std::as_const(D[Cur]), DResidual);
      unsigned Bits = DResidual.get(0);
      std::memcpy(&Res, &Bits, sizeof Res);
    }
    Cur = 1 - Cur;
    if (StepTimes)
      Returned.emplace_back(msSince(T0),
                            mstage_rt_last_launch_source(nullptr));
  }
  current_stream().synchronize();
  double Ms = msSince(T0);
  for (size_t I = 0; I < Returned.size(); ++I)
    std::fprintf(stderr, "# step %zu returned %.3f ms, source %d\n", I + 1,
                 Returned[I].first, Returned[I].second);

  std::vector<float> Field = D[Cur].download(), Expected = Initial;
  float ExpectedRes = heatReference(N, Steps, Expected);
  if (long long At = firstBitDifference(Field.data(), Expected.data(), Cells);
      At >= 0)
    die("heat " + std::to_string(N) + ": element " + std::to_string(At) +
        " differs from the CPU's");
  if (Res != ExpectedRes)
    die("heat: residual differs from the CPU's");
  std::string What = "heat-" + std::to_string(N) + "-first-" +
                     std::to_string(Steps) + "-steps";
  row(What.c_str(), Ms);
  std::fprintf(stderr, "# heat %zu (%s): first %d steps %.3f ms, bit-identical "
               "to the CPU\n", N, jitMode(), Steps, Ms);
}

// T threads, each launching its own specialization (its input's size is
// staged) and waiting for it.
void threads(int T) {
  std::vector<std::unique_ptr<Reduction>> Rs;
  for (int I = 0; I < T; ++I)
    Rs.push_back(std::make_unique<Reduction>((1 << 20) + 64 * I));
  current_stream().synchronize();
  auto T0 = Clock::now();
  std::vector<std::thread> Threads;
  for (int I = 0; I < T; ++I)
    Threads.emplace_back([&, I] {
      auto K = Rs[I]->kernelFor();
      K(Rs[I]->In, Rs[I]->Out);
      current_stream().synchronize();
    });
  for (std::thread &Th : Threads)
    Th.join();
  double Ms = msSince(T0);
  for (auto &R : Rs)
    R->check();
  std::string What = std::to_string(T) + "-threads-cold";
  row(What.c_str(), Ms);
  std::fprintf(stderr, "# %d cold specializations from %d threads: %.3f ms\n",
               T, T, Ms);
}

// One of the processes of procs(): 4 specializations, then waits for their
// compiles (MSTAGE_TRACE says which ones it compiled).
void procsChild() {
  for (int I = 0; I < 4; ++I) {
    Reduction R((1 << 20) + 128 * I);
    R.kernelFor()(R.In, R.Out);
    R.check();
  }
  jit_wait();
}

int countLines(const std::string &Path, const std::string &Text) {
  std::ifstream In(Path);
  std::string Line;
  int N = 0;
  while (std::getline(In, Line))
    N += Line.find(Text) != std::string::npos;
  return N;
}

void procs(int P, const char *Self) {
  std::string Dir = std::getenv("MSTAGE_CACHE_DIR");
  std::vector<pid_t> Pids;
  auto T0 = Clock::now();
  for (int I = 0; I < P; ++I) {
    std::string Log = Dir + "-trace-" + std::to_string(I);
    pid_t Pid = fork();
    if (Pid == 0) {
      setenv("MSTAGE_TRACE", "1", 1);
      if (!freopen(Log.c_str(), "w", stderr))
        _exit(2);
      execl(Self, Self, "procs-child", (char *)nullptr);
      _exit(3);
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    waitpid(Pid, &Status, 0);
    if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
      die("a child process failed");
  }
  double Ms = msSince(T0);
  int Compiles = 0, DiskHits = 0;
  for (int I = 0; I < P; ++I) {
    std::string Log = Dir + "-trace-" + std::to_string(I);
    Compiles += countLines(Log, "cache miss");
    DiskHits += countLines(Log, "cache disk");
  }
  std::printf("jit-cold,%s,%d-procs-compiles,%d\n", jitMode(), P, Compiles);
  std::printf("jit-cold,%s,%d-procs-disk-hits,%d\n", jitMode(), P, DiskHits);
  row((std::to_string(P) + "-procs-wall").c_str(), Ms);
  std::fprintf(stderr,
               "# %d processes on one cold cache, 4 specializations each: %d "
               "compiles, %d disk hits, %.1f ms\n",
               P, Compiles, DiskHits, Ms);
  if (Compiles != 4)
    die("expected each of the 4 specializations compiled once, got " +
        std::to_string(Compiles) + " compiles");
}

// A single-launch application: one launch of a long kernel whose loop trip
// counts and constants are staged (rsbench's windowed multipole lookup has
// this shape: per lookup, a sum over nuclides and poles), then the result
// is read back. Sampled threads are checked against the host's sum.
constexpr int SingleNuclides = 68, SinglePoles = 256;
constexpr float SingleKT = 0.0253f, SingleWidth = 0.25f;

float singleLookup(float E, int Nuclides, int Poles, float KT, float Width) {
  float Sum = 0.0f;
  for (int N = 0; N < Nuclides; ++N) {
    float A = 1.0f + 0.01f * float(N);
    for (int P = 0; P < Poles; ++P) {
      float D = E - float(P + 1) * A * KT;
      Sum += A / (D * D + Width);
    }
  }
  return Sum;
}

void single(size_t Lookups) {
  std::vector<float> Energies(Lookups);
  for (size_t I = 0; I < Lookups; ++I)
    Energies[I] = 0.5f + float((I * 2654435761u) % 4096) / 512.0f;
  device_vector<float> DEnergies(Energies), DOut(Lookups);
  const unsigned Block = 256;
  const unsigned Blocks = unsigned((Lookups + Block - 1) / Block);
  auto Lookup = kernel(
      [Lookups](const auto &energies, auto &out) {
        size_t t = Thread::get().global.x;
        if (t >= stage(Lookups))
          return;
        out[t] =
            singleLookup(energies[t], stage(SingleNuclides), stage(SinglePoles),
                         stage(SingleKT), stage(SingleWidth));
      },
      Blocks, Block);
  Lookup(DEnergies, DOut);
  int Source = mstage_rt_last_launch_source(nullptr);
  std::vector<float> Out = DOut.download();
  double Ms = msSince(ProcessStart);
  for (size_t I = 0; I < Lookups; I += Lookups / 1024 + 1) {
    float Want = singleLookup(Energies[I], SingleNuclides, SinglePoles,
                              SingleKT, SingleWidth);
    if (!(std::fabs(Out[I] - Want) <= 1e-4f * std::fabs(Want)))
      die("single launch: lookup " + std::to_string(I) + " gave " +
          std::to_string(Out[I]) + ", the host " + std::to_string(Want));
  }
  row("single-launch-process", Ms);
  std::printf("jit-cold,%s,single-launch-generic,%d\n", jitMode(),
              Source == GenericSource ? 1 : 0);
  std::fprintf(stderr,
               "# single launch (%s): %zu lookups, process %.3f ms, the launch "
               "ran the %s code\n",
               jitMode(), Lookups, Ms,
               Source == GenericSource ? "generic" : "specialized");
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    die("usage: jit_cold listing4 | tiers N | heat N STEPS | threads T | "
        "procs P | single LOOKUPS");
  std::string What = Argv[1];
  // The single launch also runs on the CPU back end (its check is the same).
  bool OnCpu = What == "single" && !std::strcmp(mstage_rt_backend(), "cpu");
  if (What != "procs-child" && !OnCpu &&
      std::strcmp(mstage_rt_backend(), "cuda") != 0)
    die("needs a GPU");
  if (What == "listing4")
    listing4();
  else if (What == "tiers" && Argc == 3)
    tiers(std::stoul(Argv[2]));
  else if (What == "heat" && Argc == 4)
    heat(std::stoul(Argv[2]), std::atoi(Argv[3]));
  else if (What == "threads" && Argc == 3)
    threads(std::atoi(Argv[2]));
  else if (What == "procs" && Argc == 3)
    procs(std::atoi(Argv[2]), Argv[0]);
  else if (What == "procs-child")
    procsChild();
  else if (What == "single" && Argc == 3)
    single(std::stoul(Argv[2]));
  else
    die("unknown arguments");
  return 0;
}
