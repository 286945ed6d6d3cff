//===- mstage_xs.cpp - issue 34's cross-section lookups, mstage ----------===//
//
// mstage's side of the xs benchmark (bench/AppsReference.h): one lookup per
// thread, a binary search in each of its material's nuclides' energy grids
// and five interpolated cross sections, the total written and the largest
// channel reduced per block into a 64-bit counter, as
// bench/cuda/xs_baseline.cu. The grid's length, the material table's stride
// and the number of lookups are staged (side "mstage") or run-time values
// (side "unstaged").
//
//   mstage_xs [--reps R] [--n LOOKUPS] [--grid G]
//
// Prints a CSV row per side, xs,SIDE,...; on stderr
// checksum,xs,SIDE,LOOKUPS,the counter after one launch.
//
//===----------------------------------------------------------------------===//
#include "AppsMstage.h"

using namespace ports;

namespace {

template <class Stage>
void runSide(const Options &O, bool Runs, unsigned Grid, std::size_t Lookups,
             const XsTables &T, const XsResult &Ref) {
  const mstage::device_vector<float> Energy(T.Energy), Xs(T.Xs), Conc(T.Conc);
  const mstage::device_vector<int> Count(T.Count), Nuclide(T.Nuclide);
  mstage::device_vector<float> Total(Lookups);
  mstage::device_vector<unsigned long long> Hash(1);
  const std::string Variant = sideName<Stage>();
  auto K = mstage::kernel(xsKernel(Stage()), appGrid(Lookups), kAppBlock);
  auto Launch = [&] {
    K(Energy, Xs, Count, Nuclide, Conc, int(Grid), int(kXsMaxPerMaterial),
      (unsigned long long)Lookups, Total, Hash);
  };
  Hash.fill(0ull);
  Launch();
  if (!Runs)
    return;
  std::vector<unsigned long long> Got = Hash.download();
  xsCheck(Ref, 1, Total.download(), Got, Variant);
  printChecksum("xs", Variant.c_str(), Lookups, std::to_string(Got[0]));
  std::vector<double> Ms = timeLoops(O.Reps, K.stream(), Launch);
  xsCheck(Ref, 1 + appLaunches(O.Reps), Total.download(), Hash.download(),
          Variant);
  // Bytes: what the lookups read of the tables is data-dependent; the
  // column is the totals written.
  printRow("xs", Variant, Lookups, kAppBlock, appGrid(Lookups), median(Ms),
           minimum(Ms), double(Lookups) * sizeof(float));
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Grid;
  Options O = parseXsOptions(
      Argc, Argv, "mstage_xs [--reps R] [--n LOOKUPS] [--grid G]", Grid);
  const bool Runs = appExecutes("mstage_xs");
  const std::size_t Lookups = O.N ? O.N : kXsLookups;
  const XsTables T = xsTables(Grid);
  const XsResult Ref = Runs ? xsCpu(T, Grid, Lookups) : XsResult();
  printHeader();
  runSide<Staged>(O, Runs, Grid, Lookups, T, Ref);
  runSide<Unstaged>(O, Runs, Grid, Lookups, T, Ref);
  return 0;
}
