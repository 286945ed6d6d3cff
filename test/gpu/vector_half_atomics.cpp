//===- vector_half_atomics.cpp - GPU suite: CUDA's types, atomics, device -===//
//
// Each feature of issue 16's items 3, 4 and 8 against a host reference:
// - float4 and uchar4 element-wise kernels (vector loads on the GPU) against
//   the same arithmetic on the host;
// - half and bfloat16 + - * / and < on 4096 operand pairs, bit for bit
//   against the host's own half/bfloat16 arithmetic (float arithmetic
//   rounded by the same conversion);
// - a 64-bin histogram with atomic_add, one with atomic_add<scope::block>
//   on shared memory, atomic_max/min of float and of unsigned long long,
//   atomic_sub, and atomic_cas handing out one winner;
// - device::current(): warp size 32, multiprocessors and shared memory
//   nonzero, and occupancy(k, 256) between 1 and 2048 / 256 for the
//   histogram kernel, which then launches with those blocks per
//   multiprocessor.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mstage;

namespace {

constexpr const char *Name = "vector_half_atomics";
constexpr unsigned N = 4096, Bins = 64, Threads = 256;

std::string Failure;
void expect(bool Ok, const std::string &What) {
  if (!Ok && Failure.empty())
    Failure = What;
}

template <class H> bool sameBits(H A, H B) { return A.bits() == B.bits(); }

template <class H> void checkHalf(const char *Type) {
  std::mt19937 Gen(7);
  std::uniform_real_distribution<float> Dist(-100.f, 100.f);
  std::vector<H> A(N), B(N), Sum(N), Diff(N), Prod(N), Quot(N);
  std::vector<int> Less(N);
  for (unsigned I = 0; I < N; ++I) {
    A[I] = H(Dist(Gen));
    B[I] = H(Dist(Gen));
  }
  kernel(
      [](const auto &A, const auto &B, auto &Sum, auto &Diff, auto &Prod,
         auto &Quot, auto &Less) {
        auto I = Thread::get().global.x;
        Sum[I] = A[I] + B[I];
        Diff[I] = A[I] - B[I];
        Prod[I] = A[I] * B[I];
        Quot[I] = A[I] / B[I];
        Less[I] = A[I] < B[I];
      },
      N / Threads, Threads)(A, B, Sum, Diff, Prod, Quot, Less);
  for (unsigned I = 0; I < N; ++I) {
    // The reference: float arithmetic, rounded to H once.
    float X = float(A[I]), Y = float(B[I]);
    bool Ok = sameBits(Sum[I], H(X + Y)) && sameBits(Diff[I], H(X - Y)) &&
              sameBits(Prod[I], H(X * Y)) && sameBits(Quot[I], H(X / Y)) &&
              Less[I] == (X < Y);
    expect(Ok, std::string(Type) + " arithmetic differs at " +
                   std::to_string(I));
  }
}

void checkVectors() {
  std::vector<float4> X(N), Y(N);
  std::vector<uchar4> P(N), Q(N);
  for (unsigned I = 0; I < N; ++I) {
    X[I] = make_float4(I, 0.5f * I, -1.f * I, 3);
    Y[I] = make_float4(1, 2, 3, 4);
    P[I] = make_uchar4(I, I >> 4, 255 - (I & 255), 7);
  }
  std::vector<float4> Out(N);
  kernel(
      [](const auto &X, const auto &Y, auto &Out, const auto &P, auto &Q) {
        auto I = Thread::get().global.x;
        Out[I] = X[I] * Y[I] + X[I];
        uchar4 C = P[I];
        Q[I] = make_uchar4(C.w, C.z, C.y, C.x) + C;
      },
      N / Threads, Threads)(X, Y, Out, P, Q);
  for (unsigned I = 0; I < N; ++I) {
    uchar4 C = P[I];
    expect(Out[I] == X[I] * Y[I] + X[I] &&
               Q[I] == make_uchar4(C.w, C.z, C.y, C.x) + C,
           "vector types differ at " + std::to_string(I));
  }
}

void checkAtomicsAndDevice() {
  std::vector<unsigned> Keys(N);
  std::mt19937 Gen(11);
  for (unsigned &K : Keys)
    K = Gen() % Bins;
  std::vector<int> Hist(Bins), BlockHist(Bins), Misc = {0, 0, 0};
  std::vector<float> FMax = {-1e30f}, FMin = {1e30f};
  std::vector<unsigned long long> UMax(1);
  auto K = kernel(
      [](const auto &Keys, auto &Hist, auto &BlockHist, auto &Misc,
         auto &FMax, auto &FMin, auto &UMax) {
        auto G = Thread::get().global.x;
        unsigned T = Thread::get().index.x;
        shared_memory<int> Local;
        for (unsigned B = T; B < Bins; B += Block::get().range.x)
          Local[B] = 0;
        Block::get().synchronize();
        unsigned Key = Keys[G];
        atomic_add(&Hist[Key], 1);
        atomic_add<scope::block>(&Local[Key], 1);
        atomic_sub(&Misc[0], 3);
        if (atomic_cas(&Misc[1], 0, int(G) + 1) == 0)
          atomic_add(&Misc[2], 1);
        atomic_max(&FMax[0], float(Key) * 0.5f);
        atomic_min(&FMin[0], float(Key) - 7.f);
        atomic_max(&UMax[0], (unsigned long long)Key << 40);
        Block::get().synchronize();
        for (unsigned B = T; B < Bins; B += Block::get().range.x)
          atomic_add(&BlockHist[B], Local[B]);
      },
      N / Threads, Threads, Bins * sizeof(int))
               // Which thread wins atomic_cas depends on the order threads
               // run in: MSTAGE_CHECK=cpu would see a different winner.
               .check_on_cpu(false);
  K(Keys, Hist, BlockHist, Misc, FMax, FMin, UMax);
  std::vector<int> Ref(Bins);
  unsigned MaxKey = 0, MinKey = Bins;
  for (unsigned Key : Keys) {
    ++Ref[Key];
    MaxKey = std::max(MaxKey, Key);
    MinKey = std::min(MinKey, Key);
  }
  expect(Hist == Ref, "atomic_add histogram differs");
  expect(BlockHist == Ref, "atomic_add<scope::block> histogram differs");
  expect(Misc[0] == -3 * int(N), "atomic_sub total differs");
  expect(Misc[2] == 1 && Misc[1] >= 1 && Misc[1] <= int(N),
         "atomic_cas: not exactly one winner");
  expect(FMax[0] == float(MaxKey) * 0.5f && FMin[0] == float(MinKey) - 7.f,
         "float atomic_max/min differ");
  expect(UMax[0] == (unsigned long long)MaxKey << 40,
         "unsigned long long atomic_max differs");

  device D = device::current();
  expect(D.warp_size() == 32, "warp size is not 32");
  expect(D.multiprocessors() > 0 && D.shared_memory_per_block() >= 48 * 1024 &&
             D.shared_memory_per_multiprocessor() >=
                 D.shared_memory_per_block() &&
             !D.name().empty() && !D.arch().empty(),
         "device properties missing");
  unsigned Occ = D.occupancy(K, Threads, Keys, Hist, BlockHist, Misc, FMax,
                             FMin, UMax);
  expect(Occ >= 1 && Occ <= D.max_threads_per_multiprocessor() / Threads,
         "occupancy " + std::to_string(Occ) + " out of range");
  std::printf("device: %s, %s, %u multiprocessors, occupancy %u\n",
              D.name().c_str(), D.arch().c_str(), D.multiprocessors(), Occ);
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  checkVectors();
  checkHalf<half>("half");
  checkHalf<bfloat16>("bfloat16");
  checkAtomicsAndDevice();
  if (!Failure.empty()) {
    std::printf("FAIL %s: %s\n", Name, Failure.c_str());
    return 1;
  }
  std::printf("PASS %s\n", Name);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
