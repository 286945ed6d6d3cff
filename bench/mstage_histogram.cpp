// mstage's side of issue 16's histogram: 256 bins over N bytes read four at
// a time as mstage::uchar4, by a grid-stride loop of 8 blocks of 256 threads
// per multiprocessor (mstage::device::current()), as
// bench/cuda/histogram_baseline.cu:
//   shared  per-block bins in a shared_array<unsigned, 256>, counted with
//           mstage::atomic_add<scope::block> (relaxed, as atomicAdd), then
//           merged into the global bins with mstage::atomic_add
//   global  mstage::atomic_add on the global bins for every byte
// The launches add to the same bins: after R launches each bin must be R
// times the CPU's count.
//
// Each kernel stages the input's length (in.size(), which nvcc's kernels take
// as an argument) through its policy; they run staged (side "mstage") and
// unstaged ("unstaged").
//
//   mstage_histogram [--reps R] [--n N]       (N a multiple of 4)
//
// Prints a CSV row per variant, histogram,SIDE-VARIANT,...; on stderr
// checksum,histogram,SIDE,N,FNV-1a of the bins of one launch. Runs on the
// CPU back end too, with a small --n, to show it is right.
#include "PortsMstage.h"

#include <string>

using namespace mstage;
using namespace ports;

namespace {

constexpr unsigned Bins = kHistogramBins;

template <class Stage> auto sharedKernel(Stage stage) {
  return [=](vector_view<const uchar4> in, vector_view<unsigned> hist) {
    shared_array<unsigned, Bins> bins;
    unsigned tid = Thread::get().index.x;
    Block B = Block::get();
    for (unsigned i = tid; i < Bins; i += B.range.x)
      bins[i] = 0;
    B.synchronize();
    const size_t n4 = stage(in.size());
    size_t stride = size_t(Grid::get().range.x) * B.range.x;
    for (size_t i = B.index.x * size_t(B.range.x) + tid; i < n4; i += stride) {
      uchar4 v = in[i];
      atomic_add<scope::block>(&bins[v.x], 1u);
      atomic_add<scope::block>(&bins[v.y], 1u);
      atomic_add<scope::block>(&bins[v.z], 1u);
      atomic_add<scope::block>(&bins[v.w], 1u);
    }
    B.synchronize();
    for (unsigned i = tid; i < Bins; i += B.range.x)
      if (bins[i])
        atomic_add(&hist[i], bins[i]);
  };
}

template <class Stage> auto globalKernel(Stage stage) {
  return [=](vector_view<const uchar4> in, vector_view<unsigned> hist) {
    Thread T = Thread::get();
    const size_t n4 = stage(in.size());
    size_t stride = size_t(Grid::get().range.x) * Block::get().range.x;
    for (size_t i = T.global.x; i < n4; i += stride) {
      uchar4 v = in[i];
      atomic_add(&hist[v.x], 1u);
      atomic_add(&hist[v.y], 1u);
      atomic_add(&hist[v.z], 1u);
      atomic_add(&hist[v.w], 1u);
    }
  };
}

// Runs one side's two variants, each checked, timed and checked again.
template <class Stage>
void runSide(const Options &O, bool Runs, size_t N, unsigned Grid,
             const std::vector<unsigned> &Ref,
             const device_vector<uchar4> &DIn) {
  device_vector<unsigned> DHist(Bins);
  auto bench = [&](const char *Name, auto Lambda) {
    std::string Variant = variantName<Stage>(Name);
    auto K = kernel(Lambda, Grid, kHistogramBlock);
    DHist.fill(0u);
    K(DIn, DHist);
    if (!Runs)
      return;
    std::vector<unsigned> Got = DHist.download();
    histogramCheck(Ref, 1, Got, Variant);
    if (!std::strcmp(Name, "shared"))
      printChecksum("histogram", sideName<Stage>(), N,
                    hex(fnv1a(Got.data(), Got.size() * sizeof(unsigned))));
    std::vector<double> Ms =
        timeLaunches(O.Reps, [&] { return timedLaunch(K, DIn, DHist); });
    histogramCheck(Ref, unsigned(1 + kPortWarmups + O.Reps), DHist.download(),
                   Variant);
    printRow("histogram", Variant, N, kHistogramBlock, Grid, median(Ms),
             minimum(Ms), double(N));
  };
  bench("shared", sharedKernel(Stage()));
  bench("global", globalKernel(Stage()));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_histogram [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_histogram");
  const size_t N = O.N ? O.N : kHistogramN;
  if (N % 4)
    fail("histogram: n must be a multiple of 4");
  const std::vector<unsigned char> Bytes = histogramInput(N);
  const std::vector<unsigned> Ref = histogramCpu(Bytes);
  std::vector<uchar4> In(N / 4);
  std::memcpy(In.data(), Bytes.data(), N);
  const device_vector<uchar4> DIn(In);
  // PTX-only mode knows no multiprocessors: its PTX is for a grid of
  // kHistogramBlocksPerSm blocks (the grid is folded into the kernel, so
  // the GPU's code differs in the grid-stride loop's trip count).
  const unsigned Grid =
      (Runs ? device::current().multiprocessors() : 1) * kHistogramBlocksPerSm;

  printHeader();
  runSide<Staged>(O, Runs, N, Grid, Ref, DIn);
  runSide<Unstaged>(O, Runs, N, Grid, Ref, DIn);
  return 0;
}
