//===- apps.cpp - GPU suite: issue 34's application kernels, small -------===//
//
// The kernels of bench/mstage_{walk,xs,micro}.cpp (bench/AppsMstage.h),
// staged and unstaged, at small sizes against the host's run of the same
// physics (bench/AppsReference.h): the random walks' sums and step count
// after one and after two launches (the atomics accumulate), the lookups'
// totals and their block-reduced counter (a size that leaves the last block
// part-full), the microphysics' output state and precipitation, for many
// columns and for one (a block of 255 idle threads).
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include "AppsMstage.h"

using namespace ports;

namespace {

constexpr const char *Name = "apps";

template <class Stage> void walk(std::size_t Nx) {
  const WalkParams P = walkParams(Nx);
  const WalkTotals Ref = walkCpu(P);
  mstage::device_vector<float> Sum(P.Nx * P.Ny), SumSq(P.Nx * P.Ny);
  mstage::device_vector<unsigned long long> Steps(1);
  Sum.fill(0.0f);
  SumSq.fill(0.0f);
  Steps.fill(0ull);
  auto K = mstage::kernel(walkKernel(Stage()), appGrid(walkThreads(P)),
                          kAppBlock);
  for (unsigned L = 1; L <= 2; ++L) {
    K(P, Sum, SumSq, Steps);
    walkCheck(Ref, L, Sum.download(), Steps.download(), Stage::name);
  }
}

template <class Stage> void xs(unsigned Grid, std::size_t Lookups) {
  const XsTables T = xsTables(Grid);
  const XsResult Ref = xsCpu(T, Grid, Lookups);
  const mstage::device_vector<float> Energy(T.Energy), Xs(T.Xs), Conc(T.Conc);
  const mstage::device_vector<int> Count(T.Count), Nuclide(T.Nuclide);
  mstage::device_vector<float> Total(Lookups);
  mstage::device_vector<unsigned long long> Hash(1);
  Hash.fill(0ull);
  auto K = mstage::kernel(xsKernel(Stage()), appGrid(Lookups), kAppBlock);
  K(Energy, Xs, Count, Nuclide, Conc, int(Grid), int(kXsMaxPerMaterial),
    (unsigned long long)Lookups, Total, Hash);
  xsCheck(Ref, 1, Total.download(), Hash.download(), Stage::name);
}

template <class Stage> void micro(std::size_t Columns) {
  const MicroParams P = microParams(Columns);
  const MicroState S = microInputs(P);
  std::vector<float> Ref, RefPrecip;
  microCpu(P, S, Ref, RefPrecip);
  const mstage::device_vector<float> In(S.Fields), Pres(S.Pres), Rho(S.Rho),
      Dz(S.Dz);
  mstage::device_vector<float> Out(S.Fields.size()), Precip(2 * Columns);
  auto K = mstage::kernel(microKernel(Stage()), appGrid(Columns), kAppBlock);
  K(P, In, Pres, Rho, Dz, Out, Precip);
  microCheck(P, Ref, RefPrecip, Out.download(), Precip.download(),
             Stage::name);
}

template <class Stage> void all() {
  walk<Stage>(32);
  xs<Stage>(1000, 5000);
  micro<Stage>(1000);
  micro<Stage>(1);
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  // A wrong result prints FAIL (the check's own line) and exits 1.
  all<Staged>();
  all<Unstaged>();
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
