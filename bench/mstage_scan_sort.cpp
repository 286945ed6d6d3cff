// mstage's side of issue 18's scan and sort benchmarks, against CUB in
// bench/cuda/scan_sort_baseline.cu: inclusive_scan of 2^27 ints, sort of
// 2^26 uint32 and float keys, sort_by_key of 2^26 uint32 keys with uint32
// values. The inputs are PortsReference.h's mix(i), the same on both sides.
//
//   mstage_scan_sort [--reps R] [--n N]     (--n scales every size)
//
// Prints the CSV rows i18-scan,mstage,... i18-sort-u32,mstage,...: the time
// of one whole call (its memsets and kernels) between two events on the
// stream; on stderr checksum,BENCHMARK,mstage,N,FNV-1a of the result, which
// report.py compares with CUB's. Runs on the CPU back end too, with a small
// --n, to show that it is right. With MSTAGE_ALGO_SWEEP=1 the scan and the
// sorts also run with a handful of other tile shapes, checked the same way,
// in extra rows whose variant names the shape (mstage-b<threads>-i<items per
// thread>; no checksum lines), so that one GPU run shows which default to
// keep.
#include "PortsMstage.h"

#include <mstage/algorithm/scan.hpp>
#include <mstage/algorithm/sort.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

using namespace mstage;
using namespace ports;

namespace {

// Times Reps calls of Call() (after the warm-ups and the JIT) by events.
template <class F> std::vector<double> timeCalls(int Reps, F Call) {
  for (int R = 0; R < kPortWarmups; ++R) {
    Call();
    if (R == 0)
      jit_wait();
  }
  std::vector<double> Ms;
  stream_ref S = current_stream();
  for (int R = 0; R < Reps; ++R) {
    event A = S.record();
    Call();
    event B = S.record();
    B.synchronize();
    Ms.push_back(elapsed_ms(A, B));
  }
  return Ms;
}

// The row's variant: "mstage" for the default shape (Block and Items 0),
// else the shape's name.
template <unsigned Block, unsigned Items> std::string variant(unsigned B) {
  if (!Block && !Items)
    return "mstage";
  return "mstage-b" + std::to_string(Block ? Block : B) + "-i" +
         std::to_string(Items);
}

template <unsigned Block, unsigned Items, class T>
void report(const char *Bench, std::size_t N, const std::vector<T> &Got,
            const std::vector<double> &Ms, double Bytes) {
  if (!Block && !Items)
    printChecksum(Bench, "mstage", N,
                  hex(fnv1a(Got.data(), Got.size() * sizeof(T))));
  printRow(Bench, variant<Block, Items>(256), N, Block ? Block : 256, 0,
           median(Ms), minimum(Ms), Bytes);
}

template <unsigned Block = 0, unsigned Items = 0>
void benchScan(const Options &O, bool Runs, std::size_t N) {
  std::vector<int> In = scanSortInput<int>(N, 0);
  device_vector<int> DIn(In), DOut(N);
  inclusive_scan_fn<Block, Items> inclusive_scan;
  inclusive_scan(DIn, DOut);
  if (!Runs)
    return;
  std::vector<int> Want(N);
  std::inclusive_scan(In.begin(), In.end(), Want.begin());
  if (DOut.download() != Want)
    fail("i18-scan: inclusive_scan differs from std::inclusive_scan");
  auto Ms = timeCalls(O.Reps, [&] { inclusive_scan(DIn, DOut); });
  report<Block, Items>("i18-scan", N, DOut.download(), Ms,
                       2.0 * N * sizeof(int));
}

template <class K, unsigned Items = 0>
void benchSort(const Options &O, bool Runs, const char *Bench, std::size_t N) {
  std::vector<K> In = scanSortInput<K>(N, 1);
  device_vector<K> D(In);
  sort_fn<0, Items> sort;
  sort(D);
  if (!Runs)
    return;
  std::vector<K> Want = In;
  std::sort(Want.begin(), Want.end());
  if (D.download() != Want)
    fail(std::string(Bench) + ": sort differs from std::sort");
  jit_wait();
  std::vector<double> Ms;
  for (int R = 0; R < O.Reps + kPortWarmups; ++R) {
    D.upload(In); // not timed: the events are around the sort alone
    event A = current_stream().record();
    sort(D);
    event B = current_stream().record();
    B.synchronize();
    if (R >= kPortWarmups)
      Ms.push_back(elapsed_ms(A, B));
  }
  report<0, Items>(Bench, N, D.download(), Ms, 2.0 * N * sizeof(K));
}

void benchSortByKey(const Options &O, bool Runs, std::size_t N) {
  std::vector<unsigned> Keys = scanSortInput<unsigned>(N, 2);
  std::vector<unsigned> Values(N);
  std::iota(Values.begin(), Values.end(), 0u);
  device_vector<unsigned> DK(Keys), DV(Values);
  sort_by_key(DK, DV);
  if (!Runs)
    return;
  jit_wait();
  std::vector<unsigned> Order(N);
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return Keys[A] < Keys[B]; });
  if (DV.download() != Order)
    fail("i18-sort_by_key-u32: sort_by_key differs from std::stable_sort");
  std::vector<double> Ms;
  for (int R = 0; R < O.Reps + kPortWarmups; ++R) {
    DK.upload(Keys);
    DV.upload(Values);
    event A = current_stream().record();
    sort_by_key(DK, DV);
    event B = current_stream().record();
    B.synchronize();
    if (R >= kPortWarmups)
      Ms.push_back(elapsed_ms(A, B));
  }
  report<0, 0>("i18-sort_by_key-u32", N, DV.download(), Ms, 4.0 * N * 4);
}

} // namespace

int main(int Argc, char **Argv) {
  Options O =
      parseOptions(Argc, Argv, "mstage_scan_sort [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_scan_sort");
  const std::size_t ScanN = O.N ? 2 * O.N : std::size_t(1) << 27;
  const std::size_t SortN = O.N ? O.N : std::size_t(1) << 26;
  if (Runs)
    printHeader();
  benchScan(O, Runs, ScanN);
  benchSort<unsigned>(O, Runs, "i18-sort-u32", SortN);
  benchSort<float>(O, Runs, "i18-sort-f32", SortN);
  benchSortByKey(O, Runs, SortN);
  const char *Sweep = std::getenv("MSTAGE_ALGO_SWEEP");
  if (!Sweep || std::strcmp(Sweep, "1"))
    return 0;
  // Around the defaults: scan 256 x 15, radix pass 256 x 16 (odd item
  // counts keep a thread's scan items in distinct banks).
  benchScan<128, 15>(O, Runs, ScanN);
  benchScan<256, 11>(O, Runs, ScanN);
  benchScan<256, 19>(O, Runs, ScanN);
  benchScan<256, 23>(O, Runs, ScanN);
  benchScan<512, 11>(O, Runs, ScanN);
  benchScan<512, 15>(O, Runs, ScanN);
  benchSort<unsigned, 12>(O, Runs, "i18-sort-u32", SortN);
  benchSort<unsigned, 20>(O, Runs, "i18-sort-u32", SortN);
  benchSort<unsigned, 24>(O, Runs, "i18-sort-u32", SortN);
  benchSort<float, 12>(O, Runs, "i18-sort-f32", SortN);
  benchSort<float, 20>(O, Runs, "i18-sort-f32", SortN);
  benchSort<float, 24>(O, Runs, "i18-sort-f32", SortN);
  return 0;
}
