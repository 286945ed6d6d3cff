// With bounds checks on, an index past a shared_array extent is reported
// with the place of the access, the extent it is over and its size, then
// the kernel, block and thread (the CPU back end), for tile[y][x] and for
// tile(y, x) alike; an index in range is not.
//
// RUN: %mstagexx -O2 -DMSTAGE_BOUNDS_CHECK=1 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu not --crash %t 0 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env MSTAGE_BACKEND=cpu not --crash %t 1 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: env MSTAGE_BACKEND=cpu %t 2 2>&1 | FileCheck %s --check-prefix=OK

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int Mode = argc > 1 ? std::atoi(argv[1]) : 2;
  std::vector<float> out(32);
  mstage::kernel(
      [](mstage::vector_view<float> out, int Mode) {
        mstage::shared_array<float, 4, 8> tile;
        unsigned t = mstage::Thread::get().index.x;
        unsigned x = Mode == 2 ? t % 8 : t;
        // ROW: shared-array-bounds.cpp:[[@LINE+1]]: {{.*}}: mstage: index 8 is out of bounds for shared_array extent 1 of size 8
        tile[t % 4][Mode == 0 ? x : t % 8] = 1;
        // CALL: shared-array-bounds.cpp:[[@LINE+1]]: {{.*}}: mstage: index 8 is out of bounds for shared_array extent 1 of size 8
        out[t] = tile(t % 4, x);
      },
      1, 32)(out, Mode);
  // ROW: mstage: in kernel 'main::kernel_L{{[0-9]+}}@{{.*}}shared-array-bounds.cpp:21:7' on the CPU, block (0, 0, 0), thread (8, 0, 0)
  // CALL: mstage: in kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' on the CPU, block (0, 0, 0), thread (8, 0, 0)
  // OK: in bounds
  std::printf("in bounds\n");
}
