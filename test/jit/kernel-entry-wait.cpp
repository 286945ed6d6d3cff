// MSTAGE_PDL (on by default): a specialization for sm_90 begins with griddepcontrol.wait,
// before any access to memory but its parameters' (ld.param), and then
// griddepcontrol.launch_dependents (transforms/KernelEntryWait.h); ptxas
// assembles it. For sm_80 (no griddepcontrol), with MSTAGE_PDL=0 and in
// the generic code there is neither. PTX-only mode.
//
// RUN: rm -rf %t.on %t.default %t.sm80 %t.off && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_PDL=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.on %t
// RUN: cat %t.on/*.ptx | FileCheck %s --check-prefix=ON
// RUN: %ptxas -arch=sm_90 %t.on/*.ptx -o %t.cubin
// RUN: env -u MSTAGE_PDL MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.default %t
// RUN: cat %t.default/*.ptx | FileCheck %s --check-prefix=ON
// RUN: env MSTAGE_ARCH=sm_80 MSTAGE_PDL=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.sm80 %t
// RUN: cat %t.sm80/*.ptx | FileCheck %s --check-prefix=NONE
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_PDL=0 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.off %t
// RUN: cat %t.off/*.ptx | FileCheck %s --check-prefix=NONE
// REQUIRES: ptxas
// UNSUPPORTED: gpu

// ON:      .entry
// ON-NOT:  {{(ld|st|atom|red|cp)\.(global|shared|local|const|volatile|relaxed|b|u|s|f|v)}}
// ON:      griddepcontrol.wait;
// ON-NEXT: {{(ld.param.*|griddepcontrol.launch_dependents;)$}}
// ON:      ld.global
// ON:      st.global

// NONE-NOT: griddepcontrol

#include <mstage.hpp>

#include <vector>

int main() {
  std::vector<float> In(4096, 1.0f), Out(4096);
  mstage::kernel(
      [](auto &Out, const auto &In, float A) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = In[I] * A + float(mstage::stage(In.size()));
      },
      16, 256)(Out, In, 2.0f);
}
