// cg::memcpy_async in PTX. On sm_80 and later each chunk is a cp.async (of
// 16 bytes with .cg when the source, destination and size allow it, else
// .ca of 8 or 4), each call closes its batch with cp.async.commit_group, and
// cg::wait_prior<1> is cp.async.wait_group 1 and cg::wait cp.async.wait_group
// 0, each followed by the group's barrier. Before sm_80 (sm_75) the same
// source loads and stores (ld.global.v4 into st.shared.v4), with no cp.async.
//
// RUN: rm -rf %t.dump %t.dump75 && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=WAIT1 < %t.ptx
// RUN: FileCheck %s --check-prefix=WAIT0 < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// RUN: env MSTAGE_ARCH=sm_75 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump75 %t
// RUN: cat %t.dump75/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=SM75
// RUN: %ptxas -arch=sm_75 %t.dump75/*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<float> in(8 * 1024), out(8 * 128);
  kernel(
      [](auto &in, auto &out) {
        shared_array<float4, 2 * 256> buffer;
        float *buf = reinterpret_cast<float *>(buffer.data());
        auto block = cg::this_thread_block();
        unsigned r = block.thread_rank();
        float sum = 0;
        cg::memcpy_async(block, buf, &in[0], 1024 * sizeof(float));
        for (unsigned k = 0; k < 8; ++k) {
          if (k + 1 < 8) {
            cg::memcpy_async(block, buf + (k + 1) % 2 * 1024,
                             &in[(k + 1) * 1024], 1024 * sizeof(float));
            cg::wait_prior<1>(block);
          } else {
            cg::wait(block);
          }
          sum += buf[k % 2 * 1024 + r];
          block.sync();
        }
        out[r] = sum;
      },
      1, 128)(in, out);
}

// CHECK-LABEL: .entry
// CHECK:     cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CHECK:     cp.async.commit_group;
// WAIT1:      cp.async.wait_group 1;
// WAIT1-NEXT: bar.sync 0;
// WAIT0:      cp.async.wait_group 0;
// WAIT0-NEXT: bar.sync 0;

// SM75-NOT:  cp.async
// SM75:      ld.global{{(.nc)?}}.v4.{{[bfu]}}32
// SM75:      st.shared.v4.{{[bfu]}}32
// SM75-NOT:  cp.async
