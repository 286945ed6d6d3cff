// Issue 34's Adam step unstaged (bench/AdamReference.h: a grid-stride loop
// over the elements, an inner loop of steps with powf of two betas that
// are run-time parameters): 46 registers on main against nvcc's 36. Two
// changes of the JIT bring it to nvcc's count (ptxas 13, sm_90):
//  - libdevice's "rcp.approx.ftz.f32" inline asm becomes the intrinsic
//    (transforms/LibdeviceAsm.h), so the logarithm of each beta is hoisted
//    out of the element loop: no inline asm is left in the PTX;
//  - the by-value parameters are loaded again at their uses in the loops
//    (transforms/ParameterRemat.h): ld.param in the loop bodies instead of
//    registers held from the entry, and the element addresses recomputed
//    after the step loop.
// With both off (MSTAGE_LLVM_ARGS) the kernel needs 40 or more registers;
// with them, fewer than 40. The CPU back end's results are compared with
// the host's (adamCheck).
//
// RUN: rm -rf %t.dump %t.old && %mstagexx -O2 -std=c++20 -I%S/../../bench %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_JIT=sync MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_JIT=sync MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.old "MSTAGE_LLVM_ARGS=-mstage-remat-parameters=false -mstage-rcp-intrinsic=false" %t
// RUN: cat %t.dump/*.ptx | FileCheck %s --implicit-check-not='begin inline asm'
// RUN: %ptxas -v -arch=sm_90 %t.dump/*.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEW
// RUN: cat %t.old/*.ptx | FileCheck %s --check-prefix=ASM
// RUN: %ptxas -v -arch=sm_90 %t.old/*.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=HOST
// REQUIRES: ptxas
// UNSUPPORTED: gpu

// CHECK: .entry
// CHECK: rcp.approx.ftz.f32
// The step loop reads its parameters where it uses them.
// CHECK: ld.param.b32 {{.*}}[%rd{{[0-9]+}}+{{[0-9]+}}];
// CHECK: .pragma "nounroll";
// CHECK: ld.param.b32 {{.*}}[%rd{{[0-9]+}}+{{[0-9]+}}];
// NEW: Used {{[1-3]?[0-9]}} registers
// ASM: begin inline asm
// ASM-NEXT: rcp.approx.ftz.f32
// OLD: Used {{[4-9][0-9]}} registers
// HOST: checked 4096 elements

#include "AdamReference.h"

#include <mstage.hpp>

#include <cstdio>

using namespace ports;

int main() {
  const std::size_t N = 4096;
  const AdamState In = adamInputs(N);
  const AdamParams A = adamParams(10);
  mstage::device_vector<float> P(In.P), M(In.M), V(In.V);
  const mstage::device_vector<float> G(In.G);
  mstage::kernel(
      [](AdamParams A, unsigned long long N, mstage::vector_view<float> P,
         mstage::vector_view<float> M, mstage::vector_view<float> V,
         mstage::vector_view<const float> G) {
        const int I = int(mstage::Thread::get().global.x);
        const int Threads =
            int(mstage::Grid::get().range.x * mstage::Block::get().range.x);
        for (std::size_t J = I; J < N; J += Threads)
          adamElement(P.data(), M.data(), V.data(), G.data(), A, J);
      },
      8, 256)(A, (unsigned long long)N, P, M, V, G);
  if (!mstage_rt_executes())
    return 0;
  adamCheck(In, A, P.download(), M.download(), V.download(), "unstaged");
  std::printf("checked %zu elements\n", N);
  return 0;
}
