// mstage::wgmma on the CPU back end: a tile that does not start 1024-byte
// aligned (here 16 bytes past an aligned start), which the device's
// descriptor could not name, ends the program with a message that names the
// kernel and the thread, rather than a product of the wrong elements.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu not --crash %t 2>&1 | FileCheck %s
// CHECK: mstage: wgmma::mma_async: a tile ({{.*}}) is not 1024-byte aligned, or a slice's k is not 0, 16, 32 or 48
// CHECK-NEXT: mstage: in kernel 'main::misaligned{{.*}}' on the CPU, block (0, 0, 0), thread (0, 0, 0)

#include <mstage.hpp>

#include <cstdint>
#include <vector>

using namespace mstage;

int main() {
  std::vector<float> out(64 * 8);
  kernel(
      "misaligned",
      [](auto &out) {
        shared_array<half, 64 * 64 + 8 * 64 + 1024> smem;
        half *as = smem.data() +
                   (-reinterpret_cast<std::uintptr_t>(smem.data()) & 1023) / 2 +
                   8;
        wgmma::accumulator<8> acc;
        wgmma::fence(acc);
        wgmma::mma_async(acc, as, as + 64 * 64);
        wgmma::commit_group();
        wgmma::wait<0>(acc);
        out[Thread::get().index.x] = acc.x[0];
      },
      1, 128)(out);
  return 0;
}
