// mstage::wgmma in PTX: a kernel that uses it is compiled for sm_90a (the
// JIT's sm_90 becomes its arch-specific variant; a kernel without wgmma in
// the same program stays sm_90), and each function is its instruction:
// wgmma.fence, wgmma.mma_async.m64nNk16.f32.f16.f16 with two shared-memory
// descriptors (the 128-byte swizzle's bits, 1 << 62, and the stride 1024 / 16
// at bit 32: 0x4000004000010000 with the leading offset 1) and the
// accumulate predicate, wgmma.commit_group, wgmma.wait_group with its count,
// and fence.proxy.async for the threads' writes. The accumulator stays in
// registers (no local memory) and ptxas takes the PTX for sm_90a, also
// under mstage-ptx --resources. For another architecture the launch's error
// names the kernel and sm_90.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t 2>&1 | FileCheck %s --check-prefix=RUN90
// RUN: cat %t.dump/*wgmma_n128*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: cat %t.dump/*plain*.ptx | FileCheck %s --check-prefix=PLAIN
// RUN: %ptxas -arch=sm_90a %t.dump/*wgmma_n128*.ptx -o /dev/null
// RUN: %mstage_ptx %t --kernel main::wgmma_n128 --block 128 --arch sm_90 --resources | FileCheck %s --check-prefix=RES
// RUN: env MSTAGE_ARCH=sm_80 %t 2>&1 | FileCheck %s --check-prefix=RUN80
// RUN: env MSTAGE_ARCH=sm_100 %t 2>&1 | FileCheck %s --check-prefix=RUN100
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

int main() {
  std::vector<half> a(64 * 64), b(128 * 64);
  std::vector<float> out(64 * 128);
  try {
    kernel(
        "wgmma_n128",
        [](auto &a, auto &b, auto &out) {
          shared_array<half, 64 * 64 + 128 * 64 + 512> smem;
          half *as = smem.data() + (-reinterpret_cast<std::uintptr_t>(
                                        smem.data()) &
                                    1023) / 2;
          half *bs = as + 64 * 64;
          unsigned t = Thread::get().index.x;
          for (unsigned i = t; i < 64 * 64; i += 128)
            as[wgmma::swizzled_offset(i / 64, i % 64)] = a[i];
          for (unsigned i = t; i < 128 * 64; i += 128)
            bs[wgmma::swizzled_offset(i / 64, i % 64)] = b[i];
          wgmma::fence_shared_writes();
          Block::get().synchronize();
          wgmma::accumulator<128> acc;
          wgmma::fence(acc);
#pragma unroll
          for (unsigned k = 0; k < wgmma::tile_k; k += wgmma::mma_k)
            wgmma::mma_async(acc, as + k, bs + k, k > 0);
          wgmma::commit_group();
          wgmma::wait<1>(acc);
          wgmma::wait<0>(acc);
#pragma unroll
          for (unsigned i = 0; i < acc.num_elements; ++i)
            out[acc.row(t, i) * 128 + acc.col(t, i)] = acc.x[i];
        },
        1, 128)(a, b, out);
  } catch (const mstage::error &e) {
    std::printf("error: %s\n", e.what());
  }
  kernel(
      "plain", [](auto &out) { out[Thread::get().index.x] = 1.0f; }, 1, 32)(
      out);
  std::printf("done\n");
  return 0;
}

// RUN90-NOT: error
// RUN90: done

// CHECK: .target sm_90a
// CHECK-NOT: .local
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync
// CHECK: wgmma.fence.sync.aligned;
// CHECK: or.b64 [[DA:%rd[0-9]+]], {{%rd[0-9]+}}, 4611686293305360384;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[{]}}[[ACC:(%r[0-9]+, ){63}%r[0-9]+]]{{[}]}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}, p, 1, 1, 0, 0;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.wait_group.sync.aligned 0;

// PLAIN: .target sm_90{{$}}

// RES: registers {{[0-9]+}}, spill stores 0 B, spill loads 0 B, stack (local) 0 B

// RUN80: error: {{.*}}wgmma_n128{{.*}}mstage::wgmma needs an sm_90 device (H100, H200), whose sm_90a code has wgmma; this compile is for sm_80
// RUN80: done
// RUN100: error: {{.*}}wgmma_n128{{.*}}this compile is for sm_100
