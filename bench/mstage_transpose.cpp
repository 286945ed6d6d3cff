// mstage's side of issue 16's transpose: the CUDA SDK's transpose kernels on
// N x N floats, as bench/cuda/transpose_baseline.cu, the tiles written as
// mstage::shared_array<float, 32, 32> and <float, 32, 33>:
//   copy, naive, coalesced (shared tile), nobankconflict (padded tile)
// Each takes the matrix's width as the SDK's kernels do and stages it
// through its policy, so that the strides are constants; they run staged
// (side "mstage") and unstaged ("unstaged").
//
//   mstage_transpose [--reps R] [--n N]       (N a multiple of 32)
//
// Prints a CSV row per kernel, transpose,SIDE-KERNEL,...; on stderr
// checksum,transpose,SIDE,N,FNV-1a of the transposed matrix. Runs on the
// CPU back end too, with a small --n, to show it is right.
#include "PortsMstage.h"

#include <string>
#include <utility>

using namespace mstage;
using namespace ports;

namespace {

constexpr int TileDim = int(kTileDim), BlockRows = int(kBlockRows);

template <class Stage> auto copyKernel(Stage stage) {
  return
      [=](vector_view<float> out, vector_view<const float> in, int widthArg) {
        const int width = stage(widthArg);
        Thread T = Thread::get();
        Block B = Block::get();
        int x = int(B.index.x) * TileDim + int(T.index.x);
        int y = int(B.index.y) * TileDim + int(T.index.y);
        for (int j = 0; j < TileDim; j += BlockRows)
          out[(y + j) * width + x] = in[(y + j) * width + x];
      };
}

template <class Stage> auto naiveKernel(Stage stage) {
  return
      [=](vector_view<float> out, vector_view<const float> in, int widthArg) {
        const int width = stage(widthArg);
        Thread T = Thread::get();
        Block B = Block::get();
        int x = int(B.index.x) * TileDim + int(T.index.x);
        int y = int(B.index.y) * TileDim + int(T.index.y);
        for (int j = 0; j < TileDim; j += BlockRows)
          out[x * width + (y + j)] = in[(y + j) * width + x];
      };
}

// Pad 0: the SDK's transposeCoalesced; pad 1: transposeNoBankConflicts.
template <int Pad, class Stage> auto tiledKernel(Stage stage) {
  return
      [=](vector_view<float> out, vector_view<const float> in, int widthArg) {
        const int width = stage(widthArg);
        shared_array<float, TileDim, TileDim + Pad> tile;
        Thread T = Thread::get();
        Block B = Block::get();
        int tx = int(T.index.x), ty = int(T.index.y);
        int x = int(B.index.x) * TileDim + tx;
        int y = int(B.index.y) * TileDim + ty;
        for (int j = 0; j < TileDim; j += BlockRows)
          tile[ty + j][tx] = in[(y + j) * width + x];
        B.synchronize();
        x = int(B.index.y) * TileDim + tx;
        y = int(B.index.x) * TileDim + ty;
        for (int j = 0; j < TileDim; j += BlockRows)
          out[(y + j) * width + x] = tile[tx][ty + j];
      };
}

// Runs one side's four kernels, each checked, then timed.
template <class Stage>
void runSide(const Options &O, bool Runs, size_t N,
             const std::vector<float> &In) {
  const device_vector<float> DIn(In);
  device_vector<float> DOut(N * N);
  const dim3 Grid(unsigned(N / kTileDim), unsigned(N / kTileDim));
  const dim3 Block(kTileDim, kBlockRows);

  std::vector<float> Got;
  auto bench = [&](const char *Name, bool Transposed, auto Lambda) {
    std::string Variant = variantName<Stage>(Name);
    auto K = kernel(Lambda, Grid, Block);
    DOut.fill(0.0f);
    if (!Runs)
      return K(DOut, DIn, int(N));
    std::vector<double> Ms =
        timeLaunches(O.Reps, [&] { return timedLaunch(K, DOut, DIn, int(N)); });
    Got = DOut.download();
    transposeCheck(N, In, Got, Transposed, Variant);
    printRow("transpose", Variant, N, kTileDim * kBlockRows, Grid.x * Grid.y,
             median(Ms), minimum(Ms), 2.0 * double(N * N * sizeof(float)));
  };
  bench("copy", false, copyKernel(Stage()));
  bench("naive", true, naiveKernel(Stage()));
  bench("coalesced", true, tiledKernel<0>(Stage()));
  bench("nobankconflict", true, tiledKernel<1>(Stage()));
  if (Runs)
    printChecksum("transpose", sideName<Stage>(), N,
                  hex(fnv1a(Got.data(), Got.size() * sizeof(float))));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_transpose [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_transpose");
  const size_t N = O.N ? O.N : kTransposeN;
  if (N % kTileDim)
    fail("transpose: n must be a multiple of 32");
  const std::vector<float> In = transposeInput(N);
  printHeader();
  runSide<Staged>(O, Runs, N, In);
  runSide<Unstaged>(O, Runs, N, In);
  return 0;
}
