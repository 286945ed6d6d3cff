//===- warp_collectives.cpp - GPU suite: warp reductions, matches, scans --===//
//
// 3 blocks of 4 warps. Each thread records what each collective gave it, and
// the CPU checks it against a model of CUDA's semantics:
// - warp::reduce_add/min/max (int and unsigned), reduce_and/or/xor, and
//   reduce_add over the even lanes only (the odd ones skip it);
// - warp::match_any of a 4-byte and an 8-byte key, match_all of a key that
//   differs within the warp (0) and of one that does not (the whole warp);
// - cg::reduce over tiles of 8 with cg::plus, cg::less and cg::greater (one
//   warp reduction each), over tiles of 16 with a float cg::plus (shuffles);
// - cg::inclusive_scan and cg::exclusive_scan over tiles of 32, and an
//   inclusive scan with cg::greater (a running maximum) over tiles of 8;
// - in a branch that every third lane takes, coalesced_threads(): its size,
//   the thread's rank, cg::reduce of an int and of a long long (shuffles),
//   and an inclusive scan.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "warp_collectives";
constexpr unsigned Blocks = 3, BlockSize = 128, N = Blocks * BlockSize;
enum {
  FAdd,
  FMin,
  FMax,
  FUMin,
  FUMax,
  FAnd,
  FOr,
  FXor,
  FEvenAdd,
  FMatchAny,
  FMatchAny64,
  FMatchAllDiffer,
  FMatchAllSame,
  FTileSum,
  FTileMin,
  FTileMax,
  FTileFloatSum,
  FInclusive,
  FExclusive,
  FRunningMax,
  FCoalescedSize,
  FCoalescedRank,
  FCoalescedSum,
  FCoalescedSum64,
  FCoalescedScan,
  Fields
};
constexpr long long Poison = -12345678;

// Each thread's value: spread, with negatives, and known to the CPU.
int valueOf(unsigned I) { return int((I * 2654435761u) >> 20) % 1000 - 500; }
unsigned bitsOf(unsigned I) { return (I * 2246822519u) ^ (I << 7); }

int run() {
  std::vector<long long> Out(N * Fields, Poison);
  mstage::kernel(
      [](auto &Out) {
        using namespace mstage;
        namespace cg = mstage::cg;
        unsigned I = Thread::get().global.x;
        unsigned Lane = warp::lane_id();
        int X = valueOf(I);
        unsigned U = bitsOf(I);
        long long *R = &Out[I * Fields];
        R[FAdd] = warp::reduce_add(X);
        R[FMin] = warp::reduce_min(X);
        R[FMax] = warp::reduce_max(X);
        R[FUMin] = warp::reduce_min(U);
        R[FUMax] = warp::reduce_max(U);
        R[FAnd] = warp::reduce_and(U | 0x10000001u);
        R[FOr] = warp::reduce_or(U & 0x0f0f0f0fu);
        R[FXor] = warp::reduce_xor(U);
        if (Lane % 2 == 0)
          R[FEvenAdd] = warp::reduce_add(X, 0x55555555u);
        R[FMatchAny] = warp::match_any(X & 3);
        R[FMatchAny64] = warp::match_any((long long)(X % 3) << 40);
        R[FMatchAllDiffer] = warp::match_all(X);
        R[FMatchAllSame] = warp::match_all(I / 32);
        auto Block = cg::this_thread_block();
        auto T8 = cg::tiled_partition<8>(Block);
        R[FTileSum] = cg::reduce(T8, X, cg::plus<int>());
        R[FTileMin] = cg::reduce(T8, X, cg::less<int>());
        R[FTileMax] = cg::reduce(T8, X, cg::greater<int>());
        auto T16 = cg::tiled_partition<16>(Block);
        R[FTileFloatSum] =
            (long long)(2 * cg::reduce(T16, X * 0.5f, cg::plus<float>()));
        auto T32 = cg::tiled_partition<32>(Block);
        R[FInclusive] = cg::inclusive_scan(T32, X);
        R[FExclusive] = cg::exclusive_scan(T32, X);
        R[FRunningMax] = cg::inclusive_scan(T8, X, cg::greater<int>());
        if (Lane % 3 == 0) {
          auto G = cg::coalesced_threads();
          R[FCoalescedSize] = G.size();
          R[FCoalescedRank] = G.thread_rank();
          R[FCoalescedSum] = cg::reduce(G, X, cg::plus<int>());
          R[FCoalescedSum64] =
              cg::reduce(G, (long long)X << 33, cg::plus<long long>());
          R[FCoalescedScan] = cg::inclusive_scan(G, X);
        }
      },
      Blocks, BlockSize)(Out);

  // The model: per warp (32 consecutive threads), and per tile.
  std::vector<long long> Want(N * Fields, Poison);
  for (unsigned W = 0; W < N; W += 32) {
    int Sum = 0, Min = 1 << 30, Max = -(1 << 30), EvenSum = 0;
    unsigned UMin = ~0u, UMax = 0, And = ~0u, Or = 0, Xor = 0;
    for (unsigned L = 0; L < 32; ++L) {
      int X = valueOf(W + L);
      unsigned U = bitsOf(W + L);
      Sum += X;
      Min = std::min(Min, X);
      Max = std::max(Max, X);
      UMin = std::min(UMin, U);
      UMax = std::max(UMax, U);
      And &= U | 0x10000001u;
      Or |= U & 0x0f0f0f0fu;
      Xor ^= U;
      if (L % 2 == 0)
        EvenSum += X;
    }
    bool AllSame = true;
    for (unsigned L = 1; L < 32; ++L)
      AllSame &= valueOf(W + L) == valueOf(W);
    int Running = 0;
    // The coalesced group: lanes 0, 3, ..., 30.
    int CSum = 0, CScan = 0;
    unsigned CSize = 0;
    for (unsigned L = 0; L < 32; L += 3) {
      CSum += valueOf(W + L);
      ++CSize;
    }
    for (unsigned L = 0; L < 32; ++L) {
      unsigned I = W + L;
      int X = valueOf(I);
      long long *R = &Want[I * Fields];
      R[FAdd] = Sum;
      R[FMin] = Min;
      R[FMax] = Max;
      R[FUMin] = UMin;
      R[FUMax] = UMax;
      R[FAnd] = And;
      R[FOr] = Or;
      R[FXor] = Xor;
      if (L % 2 == 0)
        R[FEvenAdd] = EvenSum;
      unsigned Any = 0, Any64 = 0;
      for (unsigned J = 0; J < 32; ++J) {
        Any |= unsigned((valueOf(W + J) & 3) == (X & 3)) << J;
        Any64 |= unsigned(valueOf(W + J) % 3 == X % 3) << J;
      }
      R[FMatchAny] = Any;
      R[FMatchAny64] = Any64;
      R[FMatchAllDiffer] = AllSame ? 0xffffffffu : 0;
      R[FMatchAllSame] = 0xffffffffu;
      unsigned T0 = L & ~7u, T16 = L & ~15u;
      int TSum = 0, TMin = 1 << 30, TMax = -(1 << 30), TRun = -(1 << 30);
      for (unsigned J = T0; J < T0 + 8; ++J) {
        int Y = valueOf(W + J);
        TSum += Y;
        TMin = std::min(TMin, Y);
        TMax = std::max(TMax, Y);
        if (J <= L)
          TRun = std::max(TRun, Y);
      }
      int FSum = 0;
      for (unsigned J = T16; J < T16 + 16; ++J)
        FSum += valueOf(W + J);
      R[FTileSum] = TSum;
      R[FTileMin] = TMin;
      R[FTileMax] = TMax;
      R[FTileFloatSum] = FSum;
      R[FExclusive] = Running;
      Running += X;
      R[FInclusive] = Running;
      R[FRunningMax] = TRun;
      if (L % 3 == 0) {
        CScan += X;
        R[FCoalescedSize] = CSize;
        R[FCoalescedRank] = L / 3;
        R[FCoalescedSum] = CSum;
        R[FCoalescedSum64] = (long long)CSum << 33;
        R[FCoalescedScan] = CScan;
      }
    }
  }
  static const char *const FieldNames[] = {
      "reduce_add",      "reduce_min",       "reduce_max",
      "reduce_min(u)",   "reduce_max(u)",    "reduce_and",
      "reduce_or",       "reduce_xor",       "reduce_add(even lanes)",
      "match_any",       "match_any(64)",    "match_all(differ)",
      "match_all(same)", "cg::reduce plus",  "cg::reduce less",
      "cg::reduce greater", "cg::reduce float", "inclusive_scan",
      "exclusive_scan",  "scan greater",     "coalesced size",
      "coalesced rank",  "coalesced reduce", "coalesced reduce(64)",
      "coalesced scan"};
  static_assert(sizeof(FieldNames) / sizeof(*FieldNames) == Fields);
  unsigned Bad = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned F = 0; F < Fields; ++F)
      if (Out[I * Fields + F] != Want[I * Fields + F] && Bad++ < 8)
        std::printf("thread %u: %s is %lld, expected %lld\n", I,
                    FieldNames[F], Out[I * Fields + F], Want[I * Fields + F]);
  if (Bad) {
    std::printf("FAIL %s: %u wrong values\n", Name, Bad);
    return 1;
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
