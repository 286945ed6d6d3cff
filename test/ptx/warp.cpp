// Warp primitives lower to PTX's *.sync instructions: a warp reduction with
// shfl_down (also for a double, as two 32-bit shuffles), ballot, any, all,
// shfl_up, shfl_xor, shfl by index, the lane id and __syncwarp.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> out(64);
  std::vector<double> dout(64);
  kernel(
      [](auto &out, auto &dout) {
        unsigned i = Thread::get().global.x;
        int sum = int(i);
        double dsum = i * 0.5;
        for (unsigned d = 16; d > 0; d /= 2) {
          sum += warp::shfl_down(sum, d);
          dsum += warp::shfl_down(dsum, d);
        }
        unsigned odd = warp::ballot(i % 2 == 1);
        out[i] = sum + int(odd) + warp::any(i == 3) + warp::all(i < 64) +
                 warp::shfl_up(int(i), 1) + warp::shfl_xor(int(i), 1) +
                 warp::shfl(int(i), 0) + int(warp::lane_id());
        warp::sync();
        dout[i] = dsum;
      },
      2, 32)(out, dout);
}

// CHECK: shfl.sync.down.b32
// CHECK: vote.sync.ballot.b32
// CHECK: vote.sync.any.pred
// CHECK: vote.sync.all.pred
// CHECK: shfl.sync.up.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: shfl.sync.idx.b32
// CHECK: bar.warp.sync
