// Found by gen_stage_kernels.py (seed 2): a struct with padding staged in a
// loop from a capture was refused as loop-varying (SROA carries the padding
// bytes from one iteration to the next in a PHI that has no value on entry),
// though its value is the same in every iteration; fixed, it compiles and
// agrees with the CPU under MSTAGE_CHECK=stage, as the unpadded struct does.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s

#include <cstdint>
#include <cstdio>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

struct Padded {
  int32_t a;
  uint16_t b; // two bytes of padding follow
  float c;
};
struct Packed {
  int32_t a;
  int32_t b;
  float c;
};

int main() {
  int n = 3;
  uint32_t c = 5;
  std::vector<int> out(32), out2(32);
  kernel(
      [=](auto &o) {
        int acc = 0;
        for (int j = 0; j < n; ++j) {
          Padded v = stage(Padded{int32_t(c), uint16_t(7), 0.5f});
          acc += v.a + v.b + j;
        }
        o[Thread::get().global.x] = acc;
      },
      1, 32)(out);
  kernel(
      [=](auto &o) {
        int acc = 0;
        for (int j = 0; j < n; ++j) {
          Packed v = stage(Packed{int32_t(c), 7, 0.5f});
          acc += v.a + v.b + j;
        }
        o[Thread::get().global.x] = acc;
      },
      1, 32)(out2);
  std::printf("%d %d\n", out[0], out2[0]);
}
// CHECK: 39 39
