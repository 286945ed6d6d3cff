//===- atomics.cpp - GPU suite: atomic_ref against a CPU reference ---------===//
//
// 40 blocks of 256 threads. Every thread applies each atomic operation once,
// with an operand drawn on the host, and the CPU recomputes each result:
// - device scope on global memory: fetch_add/sub/min/max/and/or/xor of int,
//   fetch_min/max of unsigned, long long and unsigned long long, fetch_add/
//   sub/min/max of float and double (float and double sums use operands on a
//   coarse grid, so they are exact in any order), fetch_min/max with some
//   NaN operands, which are ignored, and fetch_max onto a NaN, which it
//   replaces; std::atomic_ref's fetch_add of int and float;
// - compare_exchange_weak in a loop hands out tickets, which must be a
//   permutation of 0..N-1; exchange passes a value along, so the values it
//   returns and the last one stored are the initial value and every thread's;
// - block scope on shared memory: a histogram per block and a float sum per
//   block, and a release store that one warp makes and an acquire load that
//   another warp spins on before it reads the message the first one wrote.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace {

constexpr const char *Name = "atomics";
constexpr unsigned Blocks = 40, Threads = 256, N = Blocks * Threads;
constexpr unsigned Bins = 16;
constexpr int Message = 0x600dcafe;

// Slots of the result vectors.
enum { IAdd, ISub, IMin, IMax, IAnd, IOr, IXor, IStdAdd, ITicket, ISlot, INum };
enum { UMin, UMax, UNum };
enum { LAdd, LMin, LMax, LNum };
enum { ULOr, ULMax, ULNum };
enum { FAdd, FSub, FMin, FMax, FMaxOfNaN, FStdAdd, FNum };
enum { DAdd, DMin, DMax, DNum };

// The lanes whose fetch_min/fetch_max operand is a NaN.
bool isNaNLane(unsigned G) { return G % 101 == 7; }
unsigned scramble(int V) { return unsigned(V) * 2654435761u; }
long long widen(int V) { return (long long)V * 1000003; }
unsigned long long scramble64(int V) {
  return (unsigned long long)widen(V) * 0x9E3779B97F4A7C15ull;
}

struct Results {
  std::vector<int> I = std::vector<int>(INum);
  std::vector<unsigned> U = std::vector<unsigned>(UNum);
  std::vector<long long> L = std::vector<long long>(LNum);
  std::vector<unsigned long long> UL = std::vector<unsigned long long>(ULNum);
  std::vector<float> F = std::vector<float>(FNum);
  std::vector<double> D = std::vector<double>(DNum);
  std::vector<int> PerThread = std::vector<int>(2 * N);        // ticket, swap
  std::vector<int> PerBlock = std::vector<int>(Blocks * (Bins + 1)); // +msg
  std::vector<float> BlockSum = std::vector<float>(Blocks);
};

// What every slot holds before the launch.
void initialize(Results &R) {
  const float FInf = std::numeric_limits<float>::infinity();
  const double DInf = std::numeric_limits<double>::infinity();
  R.I = {0, 0, INT_MAX, INT_MIN, -1, 0, 0, 0, 0, -1};
  R.U = {UINT_MAX, 0};
  R.L = {0, LLONG_MAX, LLONG_MIN};
  R.UL = {0, 0};
  R.F = {0, 0, FInf, -FInf, std::numeric_limits<float>::quiet_NaN(), 0};
  R.D = {0, DInf, -DInf};
}

// The CPU reference: the same operations, one thread after another.
Results reference(const std::vector<int> &IVal, const std::vector<float> &FVal,
                  const std::vector<double> &DVal) {
  Results R;
  initialize(R);
  R.F[FMaxOfNaN] = -std::numeric_limits<float>::infinity();
  for (unsigned G = 0; G < N; ++G) {
    int V = IVal[G];
    R.I[IAdd] = int(unsigned(R.I[IAdd]) + unsigned(V));
    R.I[ISub] = int(unsigned(R.I[ISub]) - unsigned(V));
    R.I[IMin] = std::min(R.I[IMin], V);
    R.I[IMax] = std::max(R.I[IMax], V);
    R.I[IAnd] &= V | 0x55555555;
    R.I[IOr] |= V & 0x0AAAAAAA;
    R.I[IXor] ^= V;
    R.I[IStdAdd] += 1;
    R.U[UMin] = std::min(R.U[UMin], scramble(V));
    R.U[UMax] = std::max(R.U[UMax], scramble(V));
    R.L[LAdd] += widen(V);
    R.L[LMin] = std::min(R.L[LMin], widen(V));
    R.L[LMax] = std::max(R.L[LMax], widen(V));
    R.UL[ULOr] |= 1ull << (G % 64);
    R.UL[ULMax] = std::max(R.UL[ULMax], scramble64(V));
    R.F[FAdd] += FVal[G];
    R.F[FSub] -= FVal[G];
    R.F[FStdAdd] += FVal[G];
    R.F[FMaxOfNaN] = std::max(R.F[FMaxOfNaN], FVal[G]);
    R.D[DAdd] += DVal[G];
    if (!isNaNLane(G)) {
      R.F[FMin] = std::min(R.F[FMin], FVal[G]);
      R.F[FMax] = std::max(R.F[FMax], FVal[G]);
      R.D[DMin] = std::min(R.D[DMin], DVal[G]);
      R.D[DMax] = std::max(R.D[DMax], DVal[G]);
    }
    unsigned B = G / Threads;
    R.PerBlock[B * (Bins + 1) + scramble(V) % Bins] += 1;
    R.PerBlock[B * (Bins + 1) + Bins] = Message + int(B);
    R.BlockSum[B] += FVal[G];
  }
  R.I[ITicket] = int(N);
  return R;
}

template <class T>
bool same(const char *What, const std::vector<T> &Got,
          const std::vector<T> &Want) {
  for (size_t K = 0; K < Want.size(); ++K)
    if (!(Got[K] == Want[K])) {
      std::printf("FAIL %s: %s[%zu] is %.17g, expected %.17g\n", Name, What, K,
                  double(Got[K]), double(Want[K]));
      return false;
    }
  return true;
}

int run() {
  std::mt19937 Rng(20261107);
  std::vector<int> IVal(N);
  std::vector<float> FVal(N);
  std::vector<double> DVal(N);
  for (unsigned G = 0; G < N; ++G) {
    IVal[G] = int(Rng() % 200001) - 100000;
    FVal[G] = float(int(Rng() % 513) - 256) * 0.25f;       // exact sums
    DVal[G] = double(int(Rng() % 2048001) - 1024000) / 1024; // exact sums
  }
  Results R;
  initialize(R);
  mstage::kernel(
      [](const auto &IVal, const auto &FVal, const auto &DVal, auto &I,
         auto &U, auto &L, auto &UL, auto &F, auto &D, auto &PerThread,
         auto &PerBlock, auto &BlockSum) {
        using namespace mstage;
        constexpr auto Relaxed = std::memory_order_relaxed;
        unsigned T = Thread::get().index.x, B = Block::get().index.x;
        unsigned G = Thread::get().global.x;
        int V = IVal[G];
        float FV = FVal[G];
        double DV = DVal[G];
        float FM = isNaNLane(G) ? std::numeric_limits<float>::quiet_NaN() : FV;
        double DM =
            isNaNLane(G) ? std::numeric_limits<double>::quiet_NaN() : DV;

        atomic_ref<int>(I[IAdd]).fetch_add(V, Relaxed);
        atomic_ref<int>(I[ISub]).fetch_sub(V); // seq_cst
        atomic_ref<int>(I[IMin]).fetch_min(V, Relaxed);
        atomic_ref<int>(I[IMax]).fetch_max(V, std::memory_order_acq_rel);
        atomic_ref<int>(I[IAnd]).fetch_and(V | 0x55555555, Relaxed);
        atomic_ref<int>(I[IOr]).fetch_or(V & 0x0AAAAAAA, Relaxed);
        atomic_ref<int>(I[IXor]).fetch_xor(V, Relaxed);
        std::atomic_ref<int>(I[IStdAdd]).fetch_add(1);
        atomic_ref<int> Tickets(I[ITicket]);
        int Ticket = Tickets.load(Relaxed);
        while (!Tickets.compare_exchange_weak(Ticket, Ticket + 1, Relaxed)) {
        }
        PerThread[2 * G] = Ticket;
        PerThread[2 * G + 1] = atomic_ref<int>(I[ISlot]).exchange(int(G));
        atomic_ref<unsigned>(U[UMin]).fetch_min(scramble(V), Relaxed);
        atomic_ref<unsigned>(U[UMax]).fetch_max(scramble(V), Relaxed);
        atomic_ref<long long>(L[LAdd]).fetch_add(widen(V), Relaxed);
        atomic_ref<long long>(L[LMin]).fetch_min(widen(V), Relaxed);
        atomic_ref<long long>(L[LMax]).fetch_max(widen(V), Relaxed);
        atomic_ref<unsigned long long>(UL[ULOr]).fetch_or(1ull << (G % 64),
                                                          Relaxed);
        atomic_ref<unsigned long long>(UL[ULMax]).fetch_max(scramble64(V),
                                                            Relaxed);
        atomic_ref<float>(F[FAdd]).fetch_add(FV, Relaxed);
        atomic_ref<float>(F[FSub]).fetch_sub(FV, Relaxed);
        atomic_ref<float>(F[FMin]).fetch_min(FM, Relaxed);
        atomic_ref<float>(F[FMax]).fetch_max(FM, Relaxed);
        atomic_ref<float>(F[FMaxOfNaN]).fetch_max(FV, Relaxed);
        std::atomic_ref<float>(F[FStdAdd]).fetch_add(FV);
        atomic_ref<double>(D[DAdd]).fetch_add(DV, Relaxed);
        atomic_ref<double>(D[DMin]).fetch_min(DM, Relaxed);
        atomic_ref<double>(D[DMax]).fetch_max(DM, Relaxed);

        // Shared: [0, Bins) the histogram, then the flag, the message and
        // the float sum.
        shared_memory<int> Shared;
        shared_memory<float> SharedF;
        if (T < Bins + 2)
          Shared[T] = 0;
        if (T == 0)
          SharedF[Bins + 2] = 0.0f;
        Block::get().synchronize();
        atomic_ref<int, scope::block>(Shared[scramble(V) % Bins])
            .fetch_add(1, Relaxed);
        atomic_ref<float, scope::block>(SharedF[Bins + 2])
            .fetch_add(FV, Relaxed);
        atomic_ref<int, scope::block> Flag(Shared[Bins]);
        // The message is relaxed-atomic only so that racecheck, which does
        // not follow release and acquire, sees no race.
        atomic_ref<int, scope::block> Msg(Shared[Bins + 1]);
        if (T == 0) { // warp 0 writes the message, then raises the flag
          Msg.store(Message + int(B), Relaxed);
          Flag.store(1, std::memory_order_release);
        } else if (T == 32) { // warp 1 waits for the flag, then reads it
          while (Flag.load(std::memory_order_acquire) == 0) {
          }
          PerBlock[B * (Bins + 1) + Bins] = Msg.load(Relaxed);
        }
        Block::get().synchronize();
        if (T < Bins)
          PerBlock[B * (Bins + 1) + T] = Shared[T];
        if (T == 0)
          BlockSum[B] = SharedF[Bins + 2];
      },
      Blocks, Threads, (Bins + 3) * sizeof(int))
      // The tickets and exchanges depend on the order of the atomics, which
      // MSTAGE_CHECK=cpu's second run does not repeat.
      .check_on_cpu(false)(
      IVal, FVal, DVal, R.I, R.U, R.L, R.UL, R.F, R.D, R.PerThread, R.PerBlock,
      R.BlockSum);
  if (skipWithoutGpu(Name))
    return 0;

  Results Want = reference(IVal, FVal, DVal);
  // The tickets are a permutation of 0..N-1; the exchanged values, with the
  // last one stored, are -1 and every thread's index.
  std::vector<int> Tickets(N), Swapped(N + 1);
  for (unsigned G = 0; G < N; ++G) {
    Tickets[G] = R.PerThread[2 * G];
    Swapped[G] = R.PerThread[2 * G + 1];
  }
  Swapped[N] = R.I[ISlot];
  std::sort(Tickets.begin(), Tickets.end());
  std::sort(Swapped.begin(), Swapped.end());
  for (unsigned G = 0; G < N; ++G)
    if (Tickets[G] != int(G) || Swapped[G + 1] != int(G) || Swapped[0] != -1) {
      std::printf("FAIL %s: compare_exchange tickets or exchanged values are "
                  "not a permutation (at %u: ticket %d, value %d)\n",
                  Name, G, Tickets[G], Swapped[G + 1]);
      return 1;
    }
  R.I[ISlot] = Want.I[ISlot] = 0; // checked above
  if (!same("int", R.I, Want.I) || !same("unsigned", R.U, Want.U) ||
      !same("long long", R.L, Want.L) ||
      !same("unsigned long long", R.UL, Want.UL) ||
      !same("float", R.F, Want.F) || !same("double", R.D, Want.D) ||
      !same("block histogram and message", R.PerBlock, Want.PerBlock) ||
      !same("block float sum", R.BlockSum, Want.BlockSum))
    return 1;
  std::printf("PASS %s: %u threads: fetch_add/sub/min/max/and/or/xor, "
              "compare_exchange and exchange on int, unsigned, long long, "
              "float and double, device and block scope, as on the CPU\n",
              Name, N);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
