// A device_vector reaches the kernel as a vector_view: its pointer and size
// in one 16-byte parameter, read in place (cvta.to.global, then global loads
// and stores through it); nothing is copied. The host side runs through in
// PTX-only mode (device memory is host memory there).
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t | FileCheck %s --check-prefix=HOST
// RUN: cat %t.dump/*.ptx | FileCheck %s
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <cstdio>
#include <vector>

int main() {
  mstage::device_vector<float> V(std::vector<float>(1024, 1.5f));
  mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] *= 2;
      },
      4, 256)(V);
  std::printf("size %zu\n", V.size());
}

// HOST: size 1024

// CHECK: .entry {{_ZN4main[0-9]+kernel_L19E}}(
// CHECK: .param .align 8 .b8 {{_ZN4main[0-9]+kernel_L19E}}_param_1[16]
// CHECK: ld.param.b64 {{%rd[0-9]+}}, [{{_ZN4main[0-9]+kernel_L19E}}_param_1+8];
// CHECK: ld.param.b64 [[PTR:%rd[0-9]+]], [{{.*}}];
// CHECK-NEXT: cvta.to.global.u64 {{%rd[0-9]+}}, [[PTR]];
// CHECK: ld.global.b32
// CHECK: st.global.b32
