//===- mstage_adam.cpp - issue 34's Adam step, mstage ---------------------===//
//
// mstage's side of the Adam step (bench/AdamReference.h), as
// bench/cuda/adam_baseline.cu: HeCBench's grid-stride loop over the
// elements, TimeSteps steps each. The constants and the element count are
// staged (side "mstage") or run-time values (side "unstaged").
//
//   mstage_adam [--reps R] [--n ELEMENTS]
//
// Prints a CSV row per side, adam,SIDE,...; on stderr
// checksum,adam,SIDE,N,the sum of the parameters after one launch.
//
//===----------------------------------------------------------------------===//
#include "AdamReference.h"
#include "AppsMstage.h"

using namespace ports;

namespace {

template <class Stage> auto adamKernel(Stage stage) {
  return [=](AdamParams ParamsArg, unsigned long long NArg,
             mstage::vector_view<float> P, mstage::vector_view<float> M,
             mstage::vector_view<float> V, mstage::vector_view<const float> G) {
    const AdamParams A = stage(ParamsArg);
    const unsigned long long N = stage(NArg);
    const int I = int(mstage::Thread::get().global.x);
    const int Threads =
        int(mstage::Grid::get().range.x * mstage::Block::get().range.x);
    for (std::size_t J = I; J < N; J += Threads)
      adamElement(P.data(), M.data(), V.data(), G.data(), A, J);
  };
}

template <class Stage>
void runSide(const Options &O, bool Runs, std::size_t N, const AdamState &In) {
  const AdamParams A = adamParams(kAdamTimeSteps);
  mstage::device_vector<float> P(In.P), M(In.M), V(In.V);
  const mstage::device_vector<float> G(In.G);
  const std::string Variant = sideName<Stage>();
  auto K = mstage::kernel(adamKernel(Stage()), appGrid(N), kAppBlock);
  auto Launch = [&] { K(A, (unsigned long long)N, P, M, V, G); };
  Launch();
  if (!Runs)
    return;
  std::vector<float> GotP = P.download();
  adamCheck(In, A, GotP, M.download(), V.download(), Variant);
  printChecksum("adam", Variant.c_str(), N, decimal(adamSum(GotP)));
  std::vector<double> Ms = timeLoops(O.Reps, K.stream(), Launch);
  printRow("adam", Variant, N, kAppBlock, appGrid(N), median(Ms), minimum(Ms),
           7.0 * N * sizeof(float));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_adam [--reps R] [--n N]");
  const bool Runs = appExecutes("mstage_adam");
  const std::size_t N = O.N ? O.N : kAdamN;
  const AdamState In = adamInputs(N);
  printHeader();
  runSide<Staged>(O, Runs, N, In);
  runSide<Unstaged>(O, Runs, N, In);
  return 0;
}
