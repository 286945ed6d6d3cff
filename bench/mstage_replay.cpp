// What automatic graph replay (MSTAGE_GRAPHS=auto, issue 36) costs and gains
// on the host; bench/run.sh runs it with MSTAGE_GRAPHS=off and auto
// (variants suffixed "+graphs"), bench/cuda/replay_baseline.cu is nvcc's
// side of "distinct".
//
//   mstage_replay [--only distinct|distinct4|heat-host] [--reps N]
//                 [--launches L] [--steps S] [--sizes N,N,...] [--host-only]
//
// distinct   tiny launches that never repeat: k(dv, i) with i the launch's
//            number, 256 ints, grid 1, block 256, each adding i to every
//            element; L (default 10,000) launches and one synchronize a run;
//            per launch, median and min of N (default 7) runs after a
//            warm-up. The elements are checked after every run (the sum of
//            the i), except with --host-only (on the fake driver, which runs
//            no kernels). Replay finds no period here: this is its matching
//            cost.
// distinct4  as distinct, with the kernel of issue 36's lean launch path:
//            four arguments (a += s * b + i over two vectors, s = 2) and two
//            staged values (the vectors' sizes); the elements checked
//            likewise. On the fake driver under callgrind this is mstage's
//            host path per launch (docs/performance.md, "A lean launch
//            path").
// heat-host  the heat equation's loop of bench/mstage_async.cpp (its
//            kernels, bench/HeatKernels.h; a check every 100 steps: fill,
//            residual, get), S (default 1000) steps; per step, the wall
//            time of the loop until its last get, N runs. On the fake
//            driver (test/cuda/fake-driver, nothing runs) this is mstage's
//            host path alone; on a GPU the gets wait for the kernels, as
//            mstage_async's heat does. The field is not checked (that is
//            mstage_async's). --sizes (default 256,1024) the fields.
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
// (variant mstage; run.sh appends the setting's suffix). A wrong result
// prints FAIL on stderr and exits with status 1.
#include "AsyncReference.h"
#include "HeatKernels.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace mstage;
using namespace asyncbench;

namespace {

int Reps = 7, Launches = 10000, Steps = 1000;
bool HostOnly = false;
std::vector<size_t> HeatSizes = {256, 1024};

void benchDistinct() {
  device_vector<int> D(kTinyN);
  auto K = kernel(
      [](auto &v, int add) {
        unsigned i = Thread::get().global.x;
        v[i] = v[i] + add;
      },
      1, kTinyN);
  // The sum of 0 .. Launches - 1, as int arithmetic wraps it on the device.
  unsigned Want = 0;
  for (int I = 0; I < Launches; ++I)
    Want += unsigned(I);
  std::vector<double> Ms;
  for (int R = 0; R <= Reps; ++R) {
    D.fill(0);
    current_stream().synchronize();
    jit_wait(); // the specialization in use, as in steady state
    double T0 = nowMs();
    for (int I = 0; I < Launches; ++I)
      K(D, I);
    current_stream().synchronize();
    double T1 = nowMs();
    std::vector<int> Host = D.download();
    for (unsigned I = 0; I < kTinyN && !HostOnly; ++I)
      if (unsigned(Host[I]) != Want)
        fail("distinct: element " + std::to_string(I) + " is " +
             std::to_string(Host[I]) + ", expected " + std::to_string(Want));
    if (R > 0)
      Ms.push_back((T1 - T0) / Launches);
  }
  printRow("tiny-distinct", "mstage", kTinyN, kTinyN, 1, summarize(Ms), 0.0);
}

void benchDistinct4() {
  device_vector<unsigned> A(kTinyN), B(kTinyN);
  std::vector<unsigned> Index(kTinyN);
  for (unsigned I = 0; I < kTinyN; ++I)
    Index[I] = I;
  B.upload(Index);
  auto K = kernel(
      [](auto &a, const auto &b, unsigned s, unsigned add) {
        unsigned i = Thread::get().global.x;
        unsigned n = stage(a.size());
        unsigned m = stage(b.size());
        if (i < n && i < m)
          a[i] = a[i] + s * b[i] + add;
      },
      1, kTinyN);
  // Element E ends as the sum over the launches of 2 * E + I, as unsigned
  // arithmetic wraps it on the device.
  unsigned SumOfI = 0;
  for (int I = 0; I < Launches; ++I)
    SumOfI += unsigned(I);
  std::vector<double> Ms;
  for (int R = 0; R <= Reps; ++R) {
    A.fill(0u);
    current_stream().synchronize();
    jit_wait();
    double T0 = nowMs();
    for (int I = 0; I < Launches; ++I)
      K(A, B, 2u, unsigned(I));
    current_stream().synchronize();
    double T1 = nowMs();
    std::vector<unsigned> Host = A.download();
    for (unsigned E = 0; E < kTinyN && !HostOnly; ++E) {
      unsigned Want = unsigned(Launches) * 2u * E + SumOfI;
      if (Host[E] != Want)
        fail("distinct4: element " + std::to_string(E) + " is " +
             std::to_string(Host[E]) + ", expected " + std::to_string(Want));
    }
    if (R > 0)
      Ms.push_back((T1 - T0) / Launches);
  }
  printRow("tiny-distinct4", "mstage", kTinyN, kTinyN, 1, summarize(Ms), 0.0);
}

void benchHeatHost(size_t N) {
  const size_t Cells = N * N;
  device_vector<float> D[2] = {device_vector<float>(Cells),
                               device_vector<float>(Cells)};
  device_vector<unsigned> DResidual(1);
  auto [Interior, Boundary, Residual] = heatKernels(N);
  const std::vector<float> Initial = heatInitial(N);
  std::vector<double> Ms;
  for (int R = 0; R <= Reps; ++R) {
    for (device_vector<float> &V : D)
      V.upload(Initial);
    current_stream().synchronize();
    jit_wait();
    int Cur = 0;
    double T0 = nowMs();
    for (int Step = 1; Step <= Steps; ++Step) {
      Interior(std::as_const(D[Cur]), D[1 - Cur]);
      Boundary(D[1 - Cur]);
      if (Step % kHeatCheckEvery == 0 || Step == Steps) {
        DResidual.fill(0u);
        Residual(std::as_const(D[1 - Cur]), std::as_const(D[Cur]), DResidual);
        (void)DResidual.get(0);
      }
      Cur = 1 - Cur;
    }
    double T1 = nowMs();
    current_stream().synchronize();
    if (R > 0)
      Ms.push_back((T1 - T0) / Steps);
  }
  printRow("heat-host", "mstage", N, kHeatBlockX * kHeatBlockY, 0,
           summarize(Ms), 0.0);
}

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: mstage_replay [--only distinct|distinct4|"
                       "heat-host] "
                       "[--reps N] [--launches L] [--steps S] "
                       "[--sizes N,N,...] [--host-only]\n");
  std::exit(2);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Only;
  for (int A = 1; A < Argc; A += 2) {
    std::string Arg = Argv[A];
    if (Arg == "--host-only") {
      HostOnly = true;
      --A;
      continue;
    }
    if (A + 1 >= Argc)
      usage();
    const char *Value = Argv[A + 1];
    if (Arg == "--only")
      Only = Value;
    else if (Arg == "--reps")
      Reps = std::atoi(Value);
    else if (Arg == "--launches")
      Launches = std::atoi(Value);
    else if (Arg == "--steps")
      Steps = std::atoi(Value);
    else if (Arg == "--sizes") {
      HeatSizes.clear();
      std::stringstream List(Value);
      for (std::string Item; std::getline(List, Item, ',');)
        HeatSizes.push_back(std::strtoull(Item.c_str(), nullptr, 10));
    } else
      usage();
  }
  if (Reps < 1 || Launches < 1 || Steps < 1 || HeatSizes.empty() ||
      (Only != "" && Only != "distinct" && Only != "distinct4" &&
       Only != "heat-host"))
    usage();
  try {
    if (Only.empty() || Only == "distinct")
      benchDistinct();
    if (Only.empty() || Only == "distinct4")
      benchDistinct4();
    if (Only.empty() || Only == "heat-host")
      for (size_t N : HeatSizes)
        benchHeatHost(N);
  } catch (const mstage::error &E) {
    fail(E.what());
  }
  return 0;
}
