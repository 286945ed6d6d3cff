// device_global and constant in device code: module variables the runtime
// finds by name after loading:
//  - a constant<float[64]> is a `.const` array of 64 floats, read with
//    ld.const, and kept (not folded to its initializer) at -O2;
//  - a device_global<int> is a `.global .u64` pointer that the kernel loads
//    once and updates through with an atomic add on global memory
//    (atom.global.add or red.global.add);
//  - the names are __mstage_global_ and the host's symbol; ptxas accepts the
//    PTX.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L34 --grid 1 --block 64 > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>
#include <vector>

mstage::constant<float[64]> coeff{1.f, 2.f, 3.f};
namespace app {
mstage::device_global<int> hits;
}

// CHECK-DAG: .weak .const .align 4 .b8 __mstage_global_coeff[256] = {
// CHECK-DAG: .weak .global .align 8 .u64 __mstage_global__ZN3app4hitsE;
// CHECK: mov.b32 {{%r[0-9]+}}, __mstage_global_coeff;
// CHECK: ld.const.{{[bf]}}32
// CHECK: ld.global{{.*}}.{{[bu]}}64 {{.*}}[__mstage_global__ZN3app4hitsE]
// CHECK: {{atom|red}}.global.add
int main() {
  std::vector<float> x(64);
  auto k = mstage::kernel(
      [](mstage::vector_view<float> x) {
        unsigned i = mstage::Thread::get().global.x;
        x[i] = coeff.get()[i] * x[i];
        if (x[i] > 1.f)
          mstage::atomic_add(&app::hits.get(), 1);
      },
      1, 64);
  k(x);
}
