//===- warp.cpp - GPU suite: warp primitives against a CPU model -----------===//
//
// 4 warps; each lane records what each primitive gave it, and the CPU checks
// it against what CUDA defines: a shfl_down reduction of ints and of doubles
// (lane 0 holds the warp's sum), ballot, any, all, shfl_up (lane 0 keeps its
// own value), shfl_xor, shfl from lane 5, and the lane id.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "warp";
constexpr unsigned Warps = 4, N = Warps * 32, Fields = 9;

int run() {
  std::vector<long long> Out(N * Fields);
  std::vector<double> DSum(N);
  mstage::kernel(
      [](auto &Out, auto &DSum) {
        using namespace mstage;
        unsigned I = Thread::get().global.x;
        int Sum = int(I);
        double D = I * 0.5;
        for (unsigned Delta = 16; Delta > 0; Delta /= 2) {
          Sum += warp::shfl_down(Sum, Delta);
          D += warp::shfl_down(D, Delta);
        }
        long long *R = &Out[I * Fields];
        R[0] = Sum;
        R[1] = warp::ballot(I % 2 == 1);
        R[2] = warp::any(warp::lane_id() == 3);
        R[3] = warp::all(I < N);
        R[4] = warp::all(warp::lane_id() < 31);
        R[5] = warp::shfl_up(int(I), 1);
        R[6] = warp::shfl_xor(int(I), 1);
        R[7] = warp::shfl(int(I), 5);
        R[8] = warp::lane_id();
        DSum[I] = D;
      },
      Warps, 32)(Out, DSum);
  if (mstage_rt_executes() != 1) {
    std::printf("SKIP %s: no GPU\n", Name);
    return 0;
  }
  for (unsigned I = 0; I < N; ++I) {
    unsigned Lane = I % 32, First = I - Lane;
    long long WarpSum = 0;
    for (unsigned L = 0; L < 32; ++L)
      WarpSum += First + L;
    const long long *R = &Out[I * Fields];
    long long Want[Fields] = {Lane == 0 ? WarpSum : R[0], 0xAAAAAAAAll, 1, 1,
                              0, Lane == 0 ? I : I - 1, I ^ 1, First + 5,
                              Lane};
    const char *What[Fields] = {"shfl_down sum", "ballot", "any",
                                "all (true)", "all (false)", "shfl_up",
                                "shfl_xor", "shfl", "lane_id"};
    for (unsigned F = 0; F < Fields; ++F)
      if (R[F] != Want[F]) {
        std::printf("FAIL %s: thread %u: %s gave %lld, expected %lld\n", Name,
                    I, What[F], R[F], Want[F]);
        return 1;
      }
    if (Lane == 0 && DSum[I] != WarpSum * 0.5) {
      std::printf("FAIL %s: warp %u: the double sum is %.17g, expected %.17g\n",
                  Name, I / 32, DSum[I], WarpSum * 0.5);
      return 1;
    }
  }
  std::printf("PASS %s: %u warps: shuffles (int and double), votes and lane "
              "ids as CUDA defines them\n",
              Name, Warps);
  return 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
