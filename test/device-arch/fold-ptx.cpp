// mstage::on_device() and mstage::device_arch() fold to constants in device
// code, so the branch not taken is gone from the PTX: the kernel stores the
// device branch's 11, and 900 / 800 / 700 for the architecture the JIT
// compiles for (sm_90, sm_80, sm_70), the >= 800 test's 1 or (sm_70) 3,
// with no branch (no `bra`, no `setp`)
// and no call left; ptxas accepts it.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t --kernel main::kernel_L29 --grid 1 --block 1 --arch sm_90 > %t.90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 --implicit-check-not=bra --implicit-check-not=setp --implicit-check-not=call < %t.90.ptx
// RUN: %mstage_ptx %t --kernel main::kernel_L29 --grid 1 --block 1 --arch sm_80 | FileCheck %s --check-prefixes=CHECK,SM80 --implicit-check-not=bra
// RUN: %mstage_ptx %t --kernel main::kernel_L29 --grid 1 --block 1 --arch sm_70 | FileCheck %s --check-prefixes=CHECK,SM70 --implicit-check-not=bra
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o /dev/null
// REQUIRES: ptxas

#include <mstage.hpp>
#include <vector>

// CHECK-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}], 11;
// SM90-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+4], 900;
// SM80-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+4], 800;
// SM70-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+4], 700;
// SM90-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+8], 1;
// SM80-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+8], 1;
// SM70-DAG: st.global.{{[bu]}}32 [{{%rd[0-9]+}}+8], 3;
int main() {
  std::vector<unsigned> out(3);
  auto k = mstage::kernel(
      [](mstage::vector_view<unsigned> out) {
        out[0] = mstage::on_device() ? 11u : 22u;
        out[1] = mstage::device_arch();
        out[2] = mstage::device_arch() >= 800 ? 1u : 2u;
        if (mstage::device_arch() < 800)
          out[2] = 3u;
      },
      1, 1);
  k(out);
}
