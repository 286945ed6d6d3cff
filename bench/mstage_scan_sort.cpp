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
// --n, to show that it is right. With MSTAGE_ALGO_SWEEP=1 (or all) the
// scan and the sorts also run as a few other candidates (scanCandidates,
// sortCandidates: other tile shapes, the first version's exchange or
// ranking, the scan's tiles by block index or its look-back spinning), and
// with =scan or =sort one family's candidates only; each is checked against
// the same std:: result as the default, in extra rows
// whose variant names it (mstage-b<threads>-i<items per thread>[-what]; no
// checksum lines), so that one GPU run shows which default to keep.
#include "PortsMstage.h"

#include <mstage/algorithm/scan.hpp>
#include <mstage/algorithm/sort.hpp>
#include <mstage/algorithm/transform.hpp>

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

// A row of the sweep: its variant name ("mstage" for the defaults), and
// the function object it times.
template <class Fn> struct Candidate {
  std::string Name;
  Fn Call;
};
template <class Fn> Candidate<Fn> candidate(std::string Name, Fn Call) {
  return {std::move(Name), Call};
}

template <class T>
void report(const char *Bench, const std::string &Variant, std::size_t N,
            const std::vector<T> &Got, const std::vector<double> &Ms,
            double Bytes, unsigned Block) {
  if (Variant == "mstage")
    printChecksum(Bench, "mstage", N,
                  hex(fnv1a(Got.data(), Got.size() * sizeof(T))));
  printRow(Bench, Variant, N, Block, 0, median(Ms), minimum(Ms), Bytes);
}

// The scan's input and std::inclusive_scan's result, made once for every
// candidate.
struct ScanCase {
  std::vector<int> In, Want;
};
ScanCase scanCase(std::size_t N, bool Runs) {
  ScanCase C;
  C.In = scanSortInput<int>(N, 0);
  if (Runs) {
    C.Want.resize(N);
    std::inclusive_scan(C.In.begin(), C.In.end(), C.Want.begin());
  }
  return C;
}

template <class Fn>
void benchScan(const Options &O, bool Runs, std::size_t N, const ScanCase &C,
               const Candidate<Fn> &Cand, unsigned Block) {
  device_vector<int> DIn(C.In), DOut(N);
  Cand.Call(DIn, DOut);
  if (!Runs)
    return;
  if (DOut.download() != C.Want)
    fail("i18-scan: inclusive_scan (" + Cand.Name +
         ") differs from std::inclusive_scan");
  auto Ms = timeCalls(O.Reps, [&] { Cand.Call(DIn, DOut); });
  report("i18-scan", Cand.Name, N, DOut.download(), Ms, 2.0 * N * sizeof(int),
         Block);
}

// A sort's input and std::sort's result, made once for every candidate.
template <class K> struct SortCase {
  std::vector<K> In, Want;
};
template <class K> SortCase<K> sortCase(std::size_t N, bool Runs) {
  SortCase<K> C;
  C.In = scanSortInput<K>(N, 1);
  if (Runs) {
    C.Want = C.In;
    std::sort(C.Want.begin(), C.Want.end());
  }
  return C;
}

template <class K, class Fn>
void benchSort(const Options &O, bool Runs, const char *Bench, std::size_t N,
               const SortCase<K> &C, const Candidate<Fn> &Cand,
               unsigned Block) {
  device_vector<K> D(C.In);
  Cand.Call(D);
  if (!Runs)
    return;
  if (D.download() != C.Want)
    fail(std::string(Bench) + ": sort (" + Cand.Name +
         ") differs from std::sort");
  jit_wait();
  // The input again before each sort, copied on the device (an upload of
  // 2^26 keys took longer than the sort); not timed: the events are around
  // the sort alone.
  device_vector<K> In(C.In);
  std::vector<double> Ms;
  for (int R = 0; R < O.Reps + kPortWarmups; ++R) {
    mstage::copy(In, D);
    event A = current_stream().record();
    Cand.Call(D);
    event B = current_stream().record();
    B.synchronize();
    if (R >= kPortWarmups)
      Ms.push_back(elapsed_ms(A, B));
  }
  report(Bench, Cand.Name, N, D.download(), Ms, 2.0 * N * sizeof(K), Block);
}

// The sort candidates of one key type (the default first): the radix
// pass's threads, keys a thread and ranking.
template <class K>
void sortCandidates(const Options &O, bool Runs, const char *Bench,
                    std::size_t N, bool Sweep) {
  using detail::radix_ranking;
  SortCase<K> C = sortCase<K>(N, Runs);
  auto run = [&](const char *Name, unsigned Block, auto Sort) {
    benchSort<K>(O, Runs, Bench, N, C,
                 candidate(Name, [Sort](device_vector<K> &D) { Sort(D); }),
                 Block);
  };
  run("mstage", 256, sort);
  if (!Sweep)
    return;
  // The first version's ranking (two warp barriers per key), with the
  // rest of this version; then other tiles: more keys a thread, and CUB's
  // sm_90 shape (384 threads of 20 keys).
  run("mstage-b256-i16-warpcounters", 256,
      sort_fn<0, 16, radix_ranking::warp_counters>());
  run("mstage-b256-i20", 256, sort_fn<0, 20>());
  run("mstage-b384-i20", 384, sort_fn<384, 20>());
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
  device_vector<unsigned> InK(Keys), InV(Values);
  std::vector<double> Ms;
  for (int R = 0; R < O.Reps + kPortWarmups; ++R) {
    mstage::copy(InK, DK);
    mstage::copy(InV, DV);
    event A = current_stream().record();
    sort_by_key(DK, DV);
    event B = current_stream().record();
    B.synchronize();
    if (R >= kPortWarmups)
      Ms.push_back(elapsed_ms(A, B));
  }
  report("i18-sort_by_key-u32", "mstage", N, DV.download(), Ms, 4.0 * N * 4,
         256);
}

// The scan candidates (the default first): the exchange of a tile between
// global memory and the threads, the tile shape, the tile order, the
// look-back's wait.
void scanCandidates(const Options &O, bool Runs, std::size_t N, bool Sweep) {
  using detail::scan_exchange;
  using detail::scan_order;
  using detail::scan_wait;
  ScanCase C = scanCase(N, Runs);
  auto run = [&](const char *Name, unsigned Block, auto Scan) {
    benchScan(
        O, Runs, N, C,
        candidate(Name, [Scan](device_vector<int> &In,
                               device_vector<int> &Out) { Scan(In, Out); }),
        Block);
  };
  run("mstage", detail::scan_block_threads<int>(), inclusive_scan);
  if (!Sweep)
    return;
  // The first version: 256 x 15, the block moves the tile through shared
  // memory.
  run("mstage-b256-i15-block", 256,
      inclusive_scan_fn<256, 15, scan_exchange::block>());
  run("mstage-b256-i15", 256, inclusive_scan_fn<256, 15>());
  run("mstage-b256-i23", 256, inclusive_scan_fn<256, 23>());
  // A look-back that spins (the default sleeps before it polls, as CUB's:
  // 0.90 of the spinning one's time on an H100, 2026-11-26).
  run("mstage-b128-i23-spin", 128,
      inclusive_scan_fn<128, 23, scan_exchange::warp, scan_order::counter,
                        scan_wait::spin>());
  // Tiles by block index (no atomic before the loads), as CUB.
  run("mstage-b128-i23-blockindex", 128,
      inclusive_scan_fn<128, 23, scan_exchange::warp,
                        scan_order::block_index>());
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "mstage_scan_sort [--reps R] [--n N]");
  const bool Runs = requireExecution("mstage_scan_sort");
  const std::size_t ScanN = O.N ? 2 * O.N : std::size_t(1) << 27;
  const std::size_t SortN = O.N ? O.N : std::size_t(1) << 26;
  if (Runs)
    printHeader();
  // MSTAGE_ALGO_SWEEP=1 (or all) times the candidates of both families,
  // =scan or =sort one of them.
  const char *Sweep = std::getenv("MSTAGE_ALGO_SWEEP");
  auto sweeps = [&](const char *Family) {
    return Sweep && (!std::strcmp(Sweep, "1") || !std::strcmp(Sweep, "all") ||
                     !std::strcmp(Sweep, Family));
  };
  scanCandidates(O, Runs, ScanN, sweeps("scan"));
  sortCandidates<unsigned>(O, Runs, "i18-sort-u32", SortN, sweeps("sort"));
  sortCandidates<float>(O, Runs, "i18-sort-f32", SortN, sweeps("sort"));
  benchSortByKey(O, Runs, SortN);
  return 0;
}
