// mstage's side of issue 16's scan: the templated work-efficient (Blelloch)
// exclusive scan of bench/cuda/scan_baseline.cu, its
// `__shared__ T temp[2 * BLOCK + (2 * BLOCK >> 5)]` written as
// mstage::shared_array<T, 2 * BLOCK + (2 * BLOCK >> 5)>. Each block scans
// 2*BLOCK elements (up-sweep, clear the last, down-sweep, padded against
// bank conflicts) and writes its total; the totals are scanned the same way,
// then added back.
//
// Each kernel takes its level's length as a runtime argument, as nvcc's, and
// stages it through its policy (one specialization per level, its bounds
// checks against a constant); the scan runs staged (side "mstage") and
// unstaged ("unstaged").
//
//   mstage_scan [--reps R] [--n N]
//
// Prints the CSV rows scan,SIDE,...: the time is the sum of the kernels'
// own times (mstage_rt_last_kernel_ms after each launch); on stderr
// checksum,scan,SIDE,N,FNV-1a of the scanned array. Runs on the CPU back
// end too, with a small --n, to show it is right.
#include "PortsMstage.h"

#include <utility>

using namespace mstage;
using namespace ports;

namespace {

constexpr unsigned conflictFreeOffset(unsigned N) { return N >> 5; }

template <class T, unsigned BLOCK, class Stage>
auto scanBlocksKernel(Stage stage) {
  return [=](vector_view<const T> in, vector_view<T> out, vector_view<T> sums,
             unsigned nArg) {
    const unsigned n = stage(nArg);
    shared_array<T, 2 * BLOCK + conflictFreeOffset(2 * BLOCK)> temp;
    unsigned tid = Thread::get().index.x;
    unsigned blk = Block::get().index.x;
    unsigned base = blk * 2 * BLOCK;
    unsigned ai = tid, bi = tid + BLOCK;
    temp[ai + conflictFreeOffset(ai)] = base + ai < n ? in[base + ai] : T(0);
    temp[bi + conflictFreeOffset(bi)] = base + bi < n ? in[base + bi] : T(0);

    unsigned offset = 1;
    for (unsigned d = BLOCK; d > 0; d >>= 1) { // up-sweep
      Block::get().synchronize();
      if (tid < d) {
        unsigned a = offset * (2 * tid + 1) - 1;
        unsigned b = offset * (2 * tid + 2) - 1;
        temp[b + conflictFreeOffset(b)] += temp[a + conflictFreeOffset(a)];
      }
      offset *= 2;
    }
    if (tid == 0) {
      unsigned last = 2 * BLOCK - 1 + conflictFreeOffset(2 * BLOCK - 1);
      sums[blk] = temp[last];
      temp[last] = T(0);
    }
    for (unsigned d = 1; d < 2 * BLOCK; d *= 2) { // down-sweep
      offset >>= 1;
      Block::get().synchronize();
      if (tid < d) {
        unsigned a = offset * (2 * tid + 1) - 1;
        unsigned b = offset * (2 * tid + 2) - 1;
        a += conflictFreeOffset(a);
        b += conflictFreeOffset(b);
        T t = temp[a];
        temp[a] = temp[b];
        temp[b] += t;
      }
    }
    Block::get().synchronize();
    if (base + ai < n)
      out[base + ai] = temp[ai + conflictFreeOffset(ai)];
    if (base + bi < n)
      out[base + bi] = temp[bi + conflictFreeOffset(bi)];
  };
}

// Adds each block's scanned total to its 2*BLOCK elements.
template <class T, unsigned BLOCK, class Stage>
auto addSumsKernel(Stage stage) {
  return [=](vector_view<T> out, vector_view<const T> sums, unsigned nArg) {
    const unsigned n = stage(nArg);
    unsigned blk = Block::get().index.x;
    T s = sums[blk];
    unsigned i = blk * 2 * BLOCK + Thread::get().index.x;
    if (i < n)
      out[i] += s;
    if (i + BLOCK < n)
      out[i + BLOCK] += s;
  };
}

// The buffers of every level: level 0 is the input and the output, level k
// the block totals of level k-1 (Sums) and their scan (Scanned).
template <class T, unsigned BLOCK, class Stage> struct Scan {
  std::vector<size_t> Levels;
  std::vector<device_vector<T>> Sums, Scanned;

  explicit Scan(size_t N) : Levels(scanLevels(N)) {
    for (size_t L = 0; L < Levels.size(); ++L) {
      Sums.emplace_back(blocks(L));
      Scanned.emplace_back(blocks(L));
    }
  }

  unsigned blocks(size_t L) const {
    return unsigned((Levels[L] + 2 * BLOCK - 1) / (2 * BLOCK));
  }

  // Scans In into Out; gives the sum of the kernels' times.
  double run(const device_vector<T> &In, device_vector<T> &Out) {
    double Ms = 0;
    size_t Top = Levels.size() - 1;
    for (size_t L = 0; L <= Top; ++L) {
      auto K = kernel(scanBlocksKernel<T, BLOCK>(Stage()), blocks(L), BLOCK);
      Ms += L ? timedLaunch(K, std::as_const(Sums[L - 1]), Scanned[L - 1],
                            Sums[L], unsigned(Levels[L]))
              : timedLaunch(K, In, Out, Sums[L], unsigned(Levels[L]));
    }
    for (size_t L = Top; L-- > 0;) {
      auto K = kernel(addSumsKernel<T, BLOCK>(Stage()), blocks(L), BLOCK);
      Ms += timedLaunch(K, L ? Scanned[L - 1] : Out, std::as_const(Scanned[L]),
                        unsigned(Levels[L]));
    }
    return Ms;
  }
};

// Runs one side: the check, then the timed scans, checked again.
template <class Stage>
void runSide(const Options &O, bool Runs, size_t N,
             const std::vector<int> &In) {
  const char *Side = sideName<Stage>();
  const device_vector<int> DIn(In);
  device_vector<int> DOut(N);
  Scan<int, kScanBlock, Stage> S(N);

  S.run(DIn, DOut);
  if (!Runs)
    return;
  std::vector<int> Got = DOut.download();
  scanCheck(In, Got, Side);
  printChecksum("scan", Side, N,
                hex(fnv1a(Got.data(), Got.size() * sizeof(int))));

  std::vector<double> Ms =
      timeLaunches(O.Reps, [&] { return S.run(DIn, DOut); });
  Got = DOut.download();
  scanCheck(In, Got, (std::string(Side) + ", after the timed runs").c_str());
  // Bytes: the input read and the output written once, at least.
  printRow("scan", Side, N, kScanBlock, S.blocks(0), median(Ms), minimum(Ms),
           2.0 * double(N * sizeof(int)));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_scan [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_scan");
  const size_t N = O.N ? O.N : kScanN;
  const std::vector<int> In = scanInput(N);
  if (Runs)
    printHeader();
  runSide<Staged>(O, Runs, N, In);
  runSide<Unstaged>(O, Runs, N, In);
  return 0;
}
