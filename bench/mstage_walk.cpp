//===- mstage_walk.cpp - issue 34's Feynman-Kac random walks, mstage -----===//
//
// mstage's side of the walk benchmark (bench/AppsReference.h): one thread
// per (point, chunk) of an Nx x Nx/2 grid over the ellipse, Brownian walks
// from a per-thread PCG32 until they leave it, float atomics into the
// points' sums and a 64-bit atomic step counter, as
// bench/cuda/walk_baseline.cu. The launches add to the same sums: after L
// launches each must be L times the CPU's. The walk's parameters are staged
// (side "mstage") or run-time values (side "unstaged").
//
//   mstage_walk [--reps R] [--n NX]
//
// Prints a CSV row per side, walk,SIDE,...; on stderr
// checksum,walk,SIDE,NX,the sum of the points' sums after one launch.
//
//===----------------------------------------------------------------------===//
#include "AppsMstage.h"

using namespace ports;

namespace {

template <class Stage>
void runSide(const Options &O, bool Runs, const WalkParams &P,
             const WalkTotals &Ref) {
  mstage::device_vector<float> Sum(P.Nx * P.Ny), SumSq(P.Nx * P.Ny);
  mstage::device_vector<unsigned long long> Steps(1);
  const std::string Variant = sideName<Stage>();
  auto K =
      mstage::kernel(walkKernel(Stage()), appGrid(walkThreads(P)), kAppBlock);
  auto Launch = [&] { K(P, Sum, SumSq, Steps); };
  Sum.fill(0.0f);
  SumSq.fill(0.0f);
  Steps.fill(0ull);
  Launch();
  if (!Runs)
    return;
  std::vector<float> Got = Sum.download();
  walkCheck(Ref, 1, Got, Steps.download(), Variant);
  double Total = 0;
  for (float V : Got)
    Total += V;
  printChecksum("walk", Variant.c_str(), P.Nx, decimal(Total));
  std::vector<double> Ms = timeLoops(O.Reps, K.stream(), Launch);
  walkCheck(Ref, 1 + appLaunches(O.Reps), Sum.download(), Steps.download(),
            Variant);
  printRow("walk", Variant, P.Nx, kAppBlock, appGrid(walkThreads(P)),
           median(Ms), minimum(Ms), 0.0);
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_walk [--reps R] [--n NX]");
  const bool Runs = appExecutes("mstage_walk");
  const std::size_t Nx = O.N ? O.N : kWalkNx;
  if (Nx < 2 || Nx > 8192)
    fail("walk: NX must be in [2, 8192]");
  const WalkParams P = walkParams(Nx);
  const WalkTotals Ref = Runs ? walkCpu(P) : WalkTotals();
  printHeader();
  runSide<Staged>(O, Runs, P, Ref);
  runSide<Unstaged>(O, Runs, P, Ref);
  return 0;
}
