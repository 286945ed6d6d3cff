//===- mstage_micro.cpp - issue 34's weather microphysics, mstage --------===//
//
// mstage's side of the micro benchmark (bench/AppsReference.h): one thread
// per column of 40 levels, the bulk microphysics of each cell (saturation
// adjustment, warm rain, ice, snow: long float arithmetic with branches),
// then rain and snow sedimentation in CFL-limited sub-steps, from the input
// state to the output state, as bench/cuda/micro_baseline.cu. The scheme's
// parameters (time step, levels, columns, thresholds, rates) are staged
// (side "mstage") or run-time values (side "unstaged").
//
//   mstage_micro [--reps R] [--n COLUMNS]
//
// Prints a CSV row per side, micro,SIDE,...; on stderr
// checksum,micro,SIDE,COLUMNS,the sum of the output state.
//
//===----------------------------------------------------------------------===//
#include "AppsMstage.h"

using namespace ports;

namespace {

template <class Stage>
void runSide(const Options &O, bool Runs, const MicroParams &P,
             const MicroState &S, const std::vector<float> &Ref,
             const std::vector<float> &RefPrecip) {
  const mstage::device_vector<float> In(S.Fields), Pres(S.Pres), Rho(S.Rho),
      Dz(S.Dz);
  mstage::device_vector<float> Out(S.Fields.size()),
      Precip(2 * std::size_t(P.Columns));
  const std::string Variant = sideName<Stage>();
  auto K = mstage::kernel(microKernel(Stage()), appGrid(P.Columns), kAppBlock);
  auto Launch = [&] { K(P, In, Pres, Rho, Dz, Out, Precip); };
  Launch();
  if (!Runs)
    return;
  double Sum =
      microCheck(P, Ref, RefPrecip, Out.download(), Precip.download(), Variant);
  printChecksum("micro", Variant.c_str(), P.Columns, decimal(Sum));
  std::vector<double> Ms = timeLoops(O.Reps, K.stream(), Launch);
  microCheck(P, Ref, RefPrecip, Out.download(), Precip.download(), Variant);
  // Bytes: the state read and written, the pressure, density and depths.
  printRow("micro", Variant, P.Columns, kAppBlock, appGrid(P.Columns),
           median(Ms), minimum(Ms),
           double(2 * S.Fields.size() + 3 * S.Pres.size()) * sizeof(float));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_micro [--reps R] [--n COLUMNS]");
  const bool Runs = appExecutes("mstage_micro");
  const std::size_t Columns = O.N ? O.N : kMicroColumns;
  if (Columns < 1 || Columns > (std::size_t(1) << 24))
    fail("micro: COLUMNS must be in [1, 2^24]");
  const MicroParams P = microParams(Columns);
  const MicroState S = microInputs(P);
  std::vector<float> Ref, RefPrecip;
  if (Runs)
    microCpu(P, S, Ref, RefPrecip);
  printHeader();
  runSide<Staged>(O, Runs, P, S, Ref, RefPrecip);
  runSide<Unstaged>(O, Runs, P, S, Ref, RefPrecip);
  return 0;
}
