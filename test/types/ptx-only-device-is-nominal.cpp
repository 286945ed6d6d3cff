// In PTX-only mode a program that prints its device and sizes its grid from
// it runs to the end (before, name() and multiprocessors() threw): the
// device is nominal, named so, with the multiprocessors and memory of the
// architecture's reference GPU (docs/api.md's table: the newest at or below
// MSTAGE_ARCH), and the launch sized from it is compiled with that grid
// folded (its PTX says so).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: rm -rf %t.d90 && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=off MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d90 %t 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: cat %t.d90/*.json | FileCheck %s --check-prefix=GRID90
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_75 MSTAGE_CACHE=off %t 2>&1 | FileCheck %s --check-prefix=SM75
// sm_87 has no reference of its own: sm_86's (an A10).
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_87 MSTAGE_CACHE=off %t 2>&1 | FileCheck %s --check-prefix=SM87
// UNSUPPORTED: gpu

// SM90: device 0: PTX-only sm_90 (nominal), sm_90, 132 multiprocessors, 80 GiB
// SM90-NEXT: launched 528 blocks
// GRID90: "grid": [
// GRID90-NEXT: 528,
// SM75: device 0: PTX-only sm_75 (nominal), sm_75, 40 multiprocessors, 16 GiB
// SM87: device 0: PTX-only sm_87 (nominal), sm_87, 72 multiprocessors, 24 GiB

#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  mstage::device d = mstage::device::current();
  std::printf("device %u: %s, %s, %u multiprocessors, %zu GiB\n", d.index(),
              d.name().c_str(), d.arch().c_str(), d.multiprocessors(),
              d.total_memory() >> 30);
  unsigned blocks = 4 * d.multiprocessors();
  std::vector<float> x(blocks * 128);
  mstage::kernel(
      [](auto &x) {
        auto i = mstage::Thread::get().global.x;
        x[i] = 2 * x[i];
      },
      blocks, 128)(x);
  std::printf("launched %u blocks\n", blocks);
}
