// <mstage/cuda_compat.hpp>'s intrinsics become the instructions nvcc emits
// for them (compared with nvcc -arch=sm_90 -ptx on the same calls):
// rsqrtf is rsqrt.approx.f32, __expf ex2.approx.f32, __fdividef
// div.approx.f32, the _rn arithmetic is PTX's .rn, the conversions cvt with
// their rounding, atomicInc atom.inc, __ldg ld.global.nc, __reduce_*_sync
// redux.sync, __match_*_sync match.*.sync. Without fast math
// nothing is flushed (no .ftz), as with nvcc without --use_fast_math.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -std=c++20 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*intrinsics*.ptx | FileCheck %s
// RUN: cat %t.dump/*threads*.ptx | FileCheck %s --check-prefix=THREADS
// RUN: %ptxas -arch=sm_90 %t.dump/*intrinsics*.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t.dump/*threads*.ptx -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <mstage/cuda_compat.hpp>

#include <vector>

void intrinsics() {
  std::vector<float> f(64, 2.0f);
  std::vector<int> n(32);
  mstage::kernel(
      [](auto &f, auto &n) {
        float x = f[threadIdx.x], y = f[threadIdx.x + 1];
        f[0] = rsqrtf(x);
        f[1] = __fdividef(x, y);
        f[2] = __saturatef(x);
        f[3] = __expf(x);
        f[4] = __logf(x);
        f[5] = __sinf(x);
        f[6] = __cosf(x);
        f[7] = __powf(x, y);
        f[8] = __fmul_rn(x, y);
        f[9] = __fadd_rn(x, y);
        f[10] = __fsub_rn(x, y);
        f[11] = __fdiv_rn(x, y);
        f[12] = __fmaf_rn(x, y, x);
        f[13] = __frcp_rn(x);
        f[14] = __fsqrt_rn(x);
        f[15] = abs(x - y);
        n[0] = __float2int_rn(x);
        n[1] = __float2int_rz(x);
        n[2] = __float2int_rd(x);
        n[3] = __float2int_ru(x);
        n[4] = int(__float2uint_rn(x));
        n[5] = __popc(unsigned(n[20]));
        n[6] = __clz(n[21]);
        n[7] = int(__brev(unsigned(n[22])));
        n[8] = int(__umulhi(unsigned(n[23]), unsigned(n[24])));
        n[9] = int(__byte_perm(unsigned(n[25]), unsigned(n[26]), 0x5140u));
      },
      1, 32)(f, n);
}

// CHECK-DAG: rsqrt.approx.f32
// CHECK-DAG: div.approx.f32
// CHECK-DAG: cvt.sat.f32.f32
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: lg2.approx.f32
// CHECK-DAG: sin.approx.f32
// CHECK-DAG: cos.approx.f32
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: add.rn.f32
// CHECK-DAG: sub.rn.f32
// CHECK-DAG: div.rn.f32
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: rcp.rn.f32
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: abs.f32
// CHECK-DAG: cvt.rni.s32.f32
// CHECK-DAG: cvt.rzi.s32.f32
// CHECK-DAG: cvt.rmi.s32.f32
// CHECK-DAG: cvt.rpi.s32.f32
// CHECK-DAG: cvt.rni.u32.f32
// CHECK-DAG: popc.b32
// CHECK-DAG: clz.b32
// CHECK-DAG: brev.b32
// CHECK-DAG: mul.hi.u32
// CHECK-DAG: prmt.b32
// CHECK-NOT: .f64
// CHECK-NOT: .ftz

void threads() {
  std::vector<float> f(64);
  std::vector<unsigned> u(64);
  mstage::kernel(
      [](auto &f, auto &u) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        atomicAdd(&f[0], 1.0f);
        atomicInc(&u[0], 9u);
        atomicDec(&u[1], 9u);
        atomicMax(&u[2], i);
        atomicCAS(&u[3], 0u, i);
        f[1 + i] = __ldg(&f[40]);
        __syncthreads();
        u[4 + i] = __shfl_down_sync(0xffffffffu, i, 1u) +
                   __ballot_sync(0xffffffffu, i & 1) + gridDim.x;
        int pred;
        u[40 + i] = __reduce_add_sync(0xffffffffu, i) +
                    __reduce_max_sync(0xffffu, int(i)) +
                    __match_any_sync(0xffffffffu, i & 3) +
                    __match_all_sync(0xffffffffu, i / 32, &pred) + pred;
      },
      2, 32)(f, u);
}

// THREADS-DAG: {{atom|red}}.global.add.f32
// THREADS-DAG: atom.global.inc.u32
// THREADS-DAG: atom.global.dec.u32
// THREADS-DAG: atom.global.max.u32
// THREADS-DAG: atom{{(.relaxed.gpu)?}}.global.cas.b32
// THREADS-DAG: ld.global.nc.{{[bfu]}}32
// THREADS-DAG: {{bar.sync|bar.red.popc}}
// THREADS-DAG: shfl.sync.down.b32
// THREADS-DAG: vote.sync.ballot.b32
// THREADS-DAG: redux.sync.add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+|-1}};
// THREADS-DAG: redux.sync.max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+|65535}};
// THREADS-DAG: match.any.sync.b32
// THREADS-DAG: match.all.sync.b32
// THREADS-DAG: %ctaid.x
// THREADS-DAG: %tid.x
// THREADS-NOT: atom.sys

int main() {
  intrinsics();
  threads();
}
