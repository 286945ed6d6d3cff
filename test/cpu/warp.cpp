// Warp operations on the CPU back end, against CUDA's definitions written out
// lane by lane: shuffles with every width (up, down, xor, idx, including a
// source lane past the width and shfl_xor reading a lower segment), ballot,
// any and all with partial masks, lane ids in a 2D block, a partial last
// warp (blocks of 48 threads), and activemask and votes after lanes exited.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace mstage;

constexpr unsigned Fields = 12;

int main() {
  constexpr unsigned BX = 16, BY = 3, Blocks = 5; // 48 threads: 32 + 16
  constexpr unsigned BS = BX * BY;
  std::vector<int> Out(Blocks * BS * Fields, -99);
  kernel(
      [](auto &Out) {
        auto T = Thread::get();
        unsigned L = T.index.y * 16 + T.index.x; // linear in the block
        int V = int(Block::get().index.x * 1000 + L);
        int *R = &Out[(Block::get().index.x * 48 + L) * Fields];
        unsigned Lane = warp::lane_id();
        R[0] = int(Lane);
        // Lanes 32-47 form a warp of 16: masks name only those.
        unsigned Full = L < 32 ? warp::full_mask : 0xffffu;
        R[1] = warp::shfl_down(V, 3, Full, 8);
        R[2] = warp::shfl_up(V, 2, Full, 16);
        R[3] = warp::shfl_xor(V, 16, Full, 16);
        R[4] = warp::shfl(V, 35, Full, 8); // source 35 % 8 = 3 of the segment
        R[5] = warp::shfl(V, 0, Full);
        R[6] = int(warp::ballot(L % 3 == 0, Full));
        // Only the even lanes take part in this vote.
        if (Lane % 2 == 0)
          R[7] = warp::any(Lane == 6, 0x55555555u & Full) +
                 2 * warp::all(Lane < 40, 0x55555555u & Full);
        R[8] = int(warp::activemask());
        if (Lane >= 20)
          return; // lanes 20-31 exit; the rest go on
        R[9] = int(warp::activemask());
        R[10] = int(warp::ballot(true));
        R[11] = warp::shfl_down(V, 1);
      },
      Blocks, dim3(BX, BY))(Out);

  int Bad = 0;
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned L = 0; L < BS; ++L) {
      const int *R = &Out[(B * BS + L) * Fields];
      unsigned Lane = L % 32, Warp0 = L - Lane;
      unsigned WarpLanes = L < 32 ? 32 : 16;
      auto Val = [&](unsigned Ln) { return int(B * 1000 + Warp0 + Ln); };
      auto Seg = [&](unsigned W) { return Lane / W * W; };
      unsigned Odd = 0;
      for (unsigned J = 0; J < WarpLanes; ++J)
        if ((Warp0 + J) % 3 == 0)
          Odd |= 1u << J;
      std::vector<long long> Want = {
          Lane,
          Lane % 8 + 3 < 8 ? Val(Lane + 3) : Val(Lane),
          Lane % 16 >= 2 ? Val(Lane - 2) : Val(Lane),
          (Lane ^ 16) <= Seg(16) + 15 ? Val(Lane ^ 16) : Val(Lane),
          Val(Seg(8) + 3),
          Val(0),
          Odd,
          Lane % 2 ? -99 : 3, // any(lane 6) + 2 * all(lane < 40)
          WarpLanes == 32 ? 0xffffffffll : 0xffffll,
          Lane >= 20 ? -99 : (WarpLanes == 32 ? 0xfffffll : 0xffffll),
          Lane >= 20 ? -99 : (WarpLanes == 32 ? 0xfffffll : 0xffffll),
          Lane >= 20 ? -99 : (Lane + 1 < (WarpLanes == 32 ? 20u : 16u)
                                  ? Val(Lane + 1)
                                  : Val(Lane))};
      for (unsigned F = 0; F < Fields; ++F)
        if (R[F] != int(Want[F]) && Bad++ < 10)
          std::printf("FAIL block %u thread %u field %u: %d, expected %lld\n",
                      B, L, F, R[F], Want[F]);
    }
  std::printf("%s warp on the %s\n", Bad ? "FAIL" : "PASS",
              mstage_rt_backend());
  return Bad != 0;
}

// CHECK-NOT: FAIL
// CHECK: PASS warp on the cpu
