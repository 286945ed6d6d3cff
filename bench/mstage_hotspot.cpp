// mstage's side of issue 16's hotspot: Rodinia's 2-D thermal simulation
// with its pyramid, as bench/cuda/hotspot_baseline.cu, its three
// `__shared__ float [16][16]` tiles written as mstage::shared_array. Each
// 16x16 block runs two iterations per launch in shared memory and writes
// its inner 12x12 cells; launches swap the two temperature grids.
//
// The kernel takes the arguments Rodinia's does, and stages through its
// policy what the host knows at launch: the iterations per launch (so the
// iteration loop is unrolled), the grid's and border's sizes and the float
// coefficients. It runs staged (side "mstage") and unstaged ("unstaged").
//
//   mstage_hotspot [--reps R] [--n N]
//
// Prints the CSV rows hotspot,SIDE,N,256,GRID^2,...; on stderr
// checksum,hotspot,SIDE,N,SUM (the field after 3 launches). Runs on the
// CPU back end too, with a small --n, to show it is right.
#include "PortsMstage.h"

#include <utility>

using namespace mstage;
using namespace ports;

namespace {

constexpr int BS = kHotspotBlock;

bool inRange(int X, int Lo, int Hi) { return X >= Lo && X <= Hi; }

template <class Stage> auto hotspotKernel(Stage stage) {
  return [=](int iterationArg, vector_view<const float> power,
             vector_view<const float> tempSrc, vector_view<float> tempDst,
             int gridColsArg, int gridRowsArg, int borderColsArg,
             int borderRowsArg, float stepDivCapArg, float rx1Arg, float ry1Arg,
             float rz1Arg, float ambArg) {
    const int iteration = stage(iterationArg);
    const int gridCols = stage(gridColsArg), gridRows = stage(gridRowsArg);
    const int borderCols = stage(borderColsArg);
    const int borderRows = stage(borderRowsArg);
    const float stepDivCap = stage(stepDivCapArg), rx1 = stage(rx1Arg),
                ry1 = stage(ry1Arg), rz1 = stage(rz1Arg), amb = stage(ambArg);
    shared_array<float, BS, BS> tempOn;
    shared_array<float, BS, BS> powerOn;
    shared_array<float, BS, BS> tempT;

    Thread T = Thread::get();
    Block B = Block::get();
    int bx = int(B.index.x), by = int(B.index.y);
    int tx = int(T.index.x), ty = int(T.index.y);
    // The cells this block writes, and the tile it loads around them.
    int smallRows = BS - iteration * 2;
    int smallCols = BS - iteration * 2;
    int blkY = smallRows * by - borderRows;
    int blkX = smallCols * bx - borderCols;
    int blkYmax = blkY + BS - 1;
    int blkXmax = blkX + BS - 1;
    int yidx = blkY + ty, xidx = blkX + tx;
    int index = gridCols * yidx + xidx;
    if (inRange(yidx, 0, gridRows - 1) && inRange(xidx, 0, gridCols - 1)) {
      tempOn[ty][tx] = tempSrc[index];
      powerOn[ty][tx] = power[index];
    }
    B.synchronize();

    // The part of the tile inside the grid; neighbours outside it are the
    // cell itself.
    int validYmin = blkY < 0 ? -blkY : 0;
    int validYmax =
        blkYmax > gridRows - 1 ? BS - 1 - (blkYmax - gridRows + 1) : BS - 1;
    int validXmin = blkX < 0 ? -blkX : 0;
    int validXmax =
        blkXmax > gridCols - 1 ? BS - 1 - (blkXmax - gridCols + 1) : BS - 1;
    int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
    N = N < validYmin ? validYmin : N;
    S = S > validYmax ? validYmax : S;
    W = W < validXmin ? validXmin : W;
    E = E > validXmax ? validXmax : E;

    bool computed = false;
    for (int i = 0; i < iteration; i++) {
      computed = false;
      if (inRange(tx, i + 1, BS - i - 2) && inRange(ty, i + 1, BS - i - 2) &&
          inRange(tx, validXmin, validXmax) &&
          inRange(ty, validYmin, validYmax)) {
        computed = true;
        float t = tempOn[ty][tx];
        tempT[ty][tx] =
            t + stepDivCap * (powerOn[ty][tx] +
                              (tempOn[S][tx] + tempOn[N][tx] - 2.0f * t) * ry1 +
                              (tempOn[ty][E] + tempOn[ty][W] - 2.0f * t) * rx1 +
                              (amb - t) * rz1);
      }
      B.synchronize();
      if (i == iteration - 1)
        break;
      if (computed)
        tempOn[ty][tx] = tempT[ty][tx];
      B.synchronize();
    }
    if (computed)
      tempDst[index] = tempT[ty][tx];
  };
}

// Runs one side: the check from the initial field, then the timed launches.
template <class Stage>
void runSide(const Options &O, bool Runs, size_t N,
             const std::vector<float> &Temp, const std::vector<float> &Power) {
  const char *Side = sideName<Stage>();
  const HotspotConstants C = hotspotConstants(N);
  const device_vector<float> DPower(Power);
  device_vector<float> DTemp[2] = {device_vector<float>(Temp),
                                   device_vector<float>(Temp)};

  const unsigned G = hotspotGrid(N);
  auto K = kernel(hotspotKernel(Stage()), dim3(G, G), dim3(BS, BS));
  const int Border = kHotspotPyramid; // pyramid * EXPAND_RATE / 2
  int Src = 0;
  auto launch = [&] {
    double Ms =
        timedLaunch(K, kHotspotPyramid, DPower, std::as_const(DTemp[Src]),
                    DTemp[1 - Src], int(N), int(N), Border, Border,
                    C.StepDivCap, C.Rx1, C.Ry1, C.Rz1, C.Amb);
    Src = 1 - Src;
    return Ms;
  };

  // The check: a few launches from the initial field against the CPU.
  for (int L = 0; L < kHotspotCheckLaunches; ++L)
    launch();
  if (!Runs)
    return;
  std::vector<float> Got = DTemp[Src].download();
  hotspotCheck(N, Temp, Power, kHotspotCheckLaunches * kHotspotPyramid, Got,
               Side);
  printChecksum("hotspot", Side, N, sumChecksum(Got, 10));

  // Timed: one launch (two iterations) at a time, going on from there.
  std::vector<double> Ms = timeLaunches(O.Reps, launch);
  // Bytes: temperature and power read, temperature written, per cell.
  printRow("hotspot", Side, N, BS * BS, G * G, median(Ms), minimum(Ms),
           12.0 * double(N * N));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_hotspot [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_hotspot");
  const size_t N = O.N ? O.N : kHotspotN;
  std::vector<float> Temp, Power;
  hotspotInputs(N, Temp, Power);
  if (Runs)
    printHeader();
  runSide<Staged>(O, Runs, N, Temp, Power);
  runSide<Unstaged>(O, Runs, N, Temp, Power);
  return 0;
}
