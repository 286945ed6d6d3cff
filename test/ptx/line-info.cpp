// The device code carries line directives (.file/.loc, as nvcc -lineinfo):
// in the JIT's specialization and in the ahead-of-time generic code, with
// -g, -gline-tables-only, -gmlt and without -g (the host object then has no
// debug information); a kernel-body statement, a helper inlined into the kernel
// and the read of a staged value have their own lines. ptxas accepts the
// PTX, whose target lacks ", debug" (ptxas would not optimize it) except
// with -g -O0, which compiles for the debugger. The line numbers below are
// this file's: keep them in step.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %mstagexx -O2 -g %s -o %t/g
// RUN: %mstagexx -O2 -gline-tables-only %s -o %t/lt
// RUN: %mstagexx -O2 %s -o %t/none
// RUN: %mstagexx -O0 -g %s -o %t/debug
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-g %t/g
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-lt %t/lt
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-none %t/none
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-debug %t/debug
// RUN: %mstage_ptx %t/g --aot-ptx > %t/aot-g.ptx
// RUN: %mstage_ptx %t/lt --aot-ptx > %t/aot-lt.ptx
// RUN: %mstage_ptx %t/none --aot-ptx > %t/aot-none.ptx
// RUN: cat %t/jit-g/*.ptx | tac | FileCheck %s --check-prefix=LOC
// RUN: cat %t/jit-g/*.ptx | FileCheck %s --check-prefix=OPT
// RUN: %ptxas -arch=sm_90 %t/jit-g/*.ptx -o /dev/null
// RUN: tac %t/aot-g.ptx | FileCheck %s --check-prefix=LOC
// RUN: FileCheck %s --check-prefixes=OPT,STAGE < %t/aot-g.ptx
// RUN: %ptxas -arch=sm_90 %t/aot-g.ptx -o /dev/null
// RUN: cat %t/jit-lt/*.ptx | tac | FileCheck %s --check-prefix=LOC
// RUN: cat %t/jit-lt/*.ptx | FileCheck %s --check-prefix=OPT
// RUN: %ptxas -arch=sm_90 %t/jit-lt/*.ptx -o /dev/null
// RUN: tac %t/aot-lt.ptx | FileCheck %s --check-prefix=LOC
// RUN: FileCheck %s --check-prefixes=OPT,STAGE < %t/aot-lt.ptx
// RUN: %ptxas -arch=sm_90 %t/aot-lt.ptx -o /dev/null
// RUN: cat %t/jit-none/*.ptx | tac | FileCheck %s --check-prefix=LOC
// RUN: cat %t/jit-none/*.ptx | FileCheck %s --check-prefix=OPT
// RUN: %ptxas -arch=sm_90 %t/jit-none/*.ptx -o /dev/null
// RUN: tac %t/aot-none.ptx | FileCheck %s --check-prefix=LOC
// RUN: FileCheck %s --check-prefixes=OPT,STAGE < %t/aot-none.ptx
// RUN: %ptxas -arch=sm_90 %t/aot-none.ptx -o /dev/null
// RUN: %ptxas -arch=sm_90 %t/jit-debug/*.ptx -o /dev/null
// RUN: cat %t/jit-debug/*.ptx | FileCheck %s --check-prefix=DEBUG
// RUN: llvm-readelf -S %t/none | FileCheck %s --check-prefix=HOST
// RUN: %mstagexx -O2 -gmlt -c %s -o %t/mlt.o
// RUN: llvm-readelf -S %t/mlt.o | FileCheck %s --check-prefix=HOSTLINES
// RUN: %mstage_ptx %t/mlt.o --aot-ptx | tac | FileCheck %s --check-prefix=LOC
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

template <class Y> static void twice(Y &y, unsigned i, float v) {
  y[i] = v * 2.0f; // line 53: the inlined helper's store
}

int main(int argc, char **) {
  std::vector<float> x(1000, 4.0f), y(1000, 1.0f);
  unsigned n = 997 + argc;
  auto k = mstage::kernel(
      [n](const auto &x, auto &y) {
        auto i = mstage::Thread::get().global.x;
        unsigned limit =
            mstage::stage(n); // line 63, column 13: the staged value
        if (i < limit)
          y[i] = x[i] + 1.0f; // line 65: a statement of the kernel body
        twice(y, i + 1, x[i]);
      },
      4, 256);
  k(x, y);
}

// Reversed (tac): the .file table comes first, and an instruction before
// the .loc that gives its line. The last store is the helper's.
// LOC: .file [[F:[0-9]+]] "{{.*}}line-info.cpp"
// LOC: st.global.b32
// LOC-NEXT: .loc [[F]] 53 {{[0-9]+}}
// LOC: add.rn.f32 {{.*}}, 0f3F800000;
// LOC-NEXT: .loc [[F]] 65 {{[0-9]+}}

// OPT: .target sm_{{[89]0}}{{$}}
// OPT-NOT: .section .debug_info
// OPT-NOT: $L__tmp

// STAGE: .loc {{[0-9]+}} 63 13
// STAGE-NEXT: ld.param.b32 {{%r[0-9]+}}, [{{.*}}_param_3];

// -g -O0 compiles for the debugger, unoptimized (test/ptx/debug-build.cpp):
// the helper is a function of its own, each line has its .loc.
// DEBUG: .target sm_90, debug
// DEBUG-DAG: .loc {{[0-9]+}} 53 {{[0-9]+}}
// DEBUG-DAG: .loc {{[0-9]+}} 65 {{[0-9]+}}
// DEBUG: .section .debug_info

// HOST-NOT: .debug_info
// HOST-NOT: .debug_line

// -gmlt asks for line tables in the host object too.
// HOSTLINES: .debug_line
