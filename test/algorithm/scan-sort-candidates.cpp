// The candidates that bench/mstage_scan_sort's sweep (MSTAGE_ALGO_SWEEP)
// times besides the defaults, each against std:: on the CPU back end, as
// scan-cpu.cpp and sort-cpu.cpp check the defaults: the scans with the
// first version's block exchange, other tile shapes, tiles by block index
// and a look-back that sleeps (no pause on the CPU back end, but its polls
// run: the sweep's 128 x 23, and 32 x 15, whose 2^20+7 ints are 2185
// tiles, over the 500 that sleeping needs); the radix sorts with the first
// version's ranking (warp counters), other keys a thread and 384 threads
// (whose last 128 do no digit's work). Sizes 0, 1, 31, 32, 33, 1023,
// around one and two tiles of the candidate's shape, and 2^20+7 for int
// scans and uint32 sorts; for the scans a non-commutative operator and 8-
// and 12-byte elements, for the sorts float (with NaNs and zeros of both
// signs), int64 and uint8 keys with values. With one CPU thread the blocks
// run one after another: the look-back must not wait for a block that has
// not started.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS scan-sort-candidates cases=

#include "ScanSortChecks.h"

using namespace scan_sort_checks;
using mstage::detail::radix_ranking;
using mstage::detail::scan_exchange;
using mstage::detail::scan_order;
using mstage::detail::scan_wait;

// Sizes around one and two tiles of Tile elements, and the usual ones.
std::vector<std::size_t> sizesAround(std::size_t Tile) {
  std::vector<std::size_t> S = {0, 1, 31, 32, 33, 1023};
  for (std::size_t N : {Tile - 1, Tile, Tile + 1, 2 * Tile + 5})
    S.push_back(N);
  return S;
}

template <unsigned Block, unsigned Items, scan_exchange Exchange,
          scan_order Order, scan_wait Wait = scan_wait::spin>
void scanCandidate(mstage::stream_ref Cur, mstage::stream_ref Own) {
  mstage::inclusive_scan_fn<Block, Items, Exchange, Order, Wait> Incl;
  mstage::exclusive_scan_fn<Block, Items, Exchange, Order, Wait> Excl;
  for (std::size_t N : sizesAround(std::size_t(Block) * Items)) {
    checkScans<int>("int", N, std::plus<>{}, 7, Cur, Incl, Excl);
    checkScans<Affine>("affine", N, ComposeAffine{}, Affine{1, 0}, Own, Incl,
                       Excl);
    checkScans<double>("double", N, std::plus<>{}, 0.5, Cur, Incl, Excl);
    checkScans<Triple>("triple", N, AddTriple{}, Triple{1, 2, 3}, Own, Incl,
                       Excl);
  }
  checkScans<int>("int", (1u << 20) + 7, std::plus<>{}, 7, Cur, Incl, Excl);
}

template <unsigned Block, unsigned Items, radix_ranking Rank>
void sortCandidate(mstage::stream_ref Cur, mstage::stream_ref Own) {
  mstage::sort_fn<Block, Items, Rank> Sort;
  mstage::sort_by_key_fn<Block, Items, Rank> ByKey;
  for (std::size_t N : sizesAround(std::size_t(Block) * Items)) {
    checkSortByKey<unsigned, int>("uint32", N, Cur, Sort, ByKey);
    checkSortByKey<float, Triple>("float", N, Own, Sort, ByKey);
    checkSortByKey<std::int64_t, float>("int64", N, Cur, Sort, ByKey);
    checkSortByKey<unsigned char, int>("uchar", N, Own, Sort, ByKey);
  }
  checkSortByKey<unsigned, int>("uint32", (1u << 20) + 7, Cur, Sort, ByKey);
}

int main() {
  mstage::stream Own;
  mstage::stream_ref Cur = mstage::current_stream();
  // The defaults' shape with the first version's exchange, and the sweep's
  // other shapes and order.
  scanCandidate<128, 23, scan_exchange::block, scan_order::counter>(Cur, Own);
  scanCandidate<256, 15, scan_exchange::block, scan_order::counter>(Cur, Own);
  scanCandidate<256, 15, scan_exchange::warp, scan_order::counter>(Cur, Own);
  scanCandidate<256, 23, scan_exchange::warp, scan_order::counter>(Cur, Own);
  scanCandidate<128, 15, scan_exchange::warp, scan_order::counter>(Cur, Own);
  scanCandidate<128, 23, scan_exchange::warp, scan_order::block_index>(Cur,
                                                                       Own);
  scanCandidate<128, 23, scan_exchange::warp, scan_order::counter,
                scan_wait::sleep>(Cur, Own);
  scanCandidate<32, 15, scan_exchange::warp, scan_order::counter,
                scan_wait::sleep>(Cur, Own);
  sortCandidate<256, 16, radix_ranking::warp_counters>(Cur, Own);
  sortCandidate<256, 20, radix_ranking::early_counts>(Cur, Own);
  sortCandidate<384, 20, radix_ranking::early_counts>(Cur, Own);
  sortCandidate<384, 20, radix_ranking::warp_counters>(Cur, Own);
  return finish("scan-sort-candidates");
}
