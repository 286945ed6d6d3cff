// A unit built with -g at -O0 compiles for the debugger (issue 35): its
// kernel blobs say so, and the JIT compiles the specialization without
// optimization (the staged value still compiled in, as a constant that the
// stage() line reads), with full DWARF and NVPTX's
// code generation at -O0, so that cuda-gdb's `next` goes line by line
// (tools/gpu/check-tools.sh checks that on a GPU). Against the same source
// at -O2 -g, whose loop of stage(Count) = 4 iterations is unrolled and whose
// variables live in registers. The ahead-of-time generic code and
// mstage-ptx's PTX are the same kind of code. ptxas accepts the PTX with
// -g; the driver's JIT (MSTAGE_PTXAS=off) is asked for debug information
// at -O0 (the fake driver prints its options); MSTAGE_TRACE says it once
// per run.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %mstagexx -O0 -g %s -o %t/debug
// RUN: %mstagexx -O2 -g %s -o %t/opt
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-debug MSTAGE_TRACE=1 %t/debug 2> %t/debug.trace
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/jit-opt MSTAGE_TRACE=1 %t/opt 2> %t/opt.trace
// RUN: cat %t/jit-debug/_ZN4main8sum_loopE-*.ptx | FileCheck %s --check-prefixes=DEBUG,DEBUG-FOLD
// RUN: cat %t/jit-opt/_ZN4main8sum_loopE-*.ptx | FileCheck %s --check-prefix=OPT
// RUN: %ptxas -g -arch=sm_90 %t/jit-debug/_ZN4main8sum_loopE-*.ptx -o /dev/null
// RUN: %mstage_ptx %t/debug --aot-ptx > %t/aot-debug.ptx
// RUN: FileCheck %s --check-prefix=DEBUG < %t/aot-debug.ptx
// RUN: %ptxas -g -arch=sm_90 %t/aot-debug.ptx -o /dev/null
// RUN: %mstage_ptx %t/debug --kernel main::sum_loop --stage 0=4 | FileCheck %s --check-prefixes=DEBUG,DEBUG-FOLD
// Said once for the run's two kernels, and not for the optimized build.
// RUN: grep -c "compiles without optimization" %t/debug.trace | FileCheck %s --check-prefix=ONCE
// RUN: FileCheck %s --check-prefix=TRACE < %t/debug.trace
// RUN: not grep "without optimization" %t/opt.trace
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PTXAS=off FAKECUDA_LOADS=1 %t/debug 2>&1 | FileCheck %s --check-prefix=LOAD --implicit-check-not="load ptx at default"
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PTXAS=off FAKECUDA_LOADS=1 %t/opt 2>&1 | FileCheck %s --check-prefix=LOAD-OPT --implicit-check-not="debug information"
// The result is the host's either way (the CPU back end runs the host body).
// RUN: env MSTAGE_BACKEND=cpu %t/debug check | FileCheck %s --check-prefix=RESULT
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char **) {
  unsigned Count = argc > 0 ? 4 : 1; // 4, unknown to the compiler
  bool Check = argc > 1;             // the fake driver runs nothing
  std::vector<float> X(32 * 4), Y(32), Z(32);
  for (unsigned I = 0; I < X.size(); ++I)
    X[I] = float(I % 7);
  auto Sum = mstage::kernel(
      "sum_loop",
      [Count](const auto &X, auto &Y) {
        unsigned I = mstage::Thread::get().global.x;
        float Acc = 0.0f;
        for (unsigned J = 0; J < mstage::stage(Count); ++J)
          Acc += X[I * 4 + J];
        Y[I] = Acc;
      },
      1, 32);
  auto Scale = mstage::kernel(
      "scale", [](auto &Z) { Z[mstage::Thread::get().global.x] = 2.0f; }, 1,
      32);
  Sum(X, Y);
  Scale(Z);
  mstage::synchronize();
  if (!Check)
    return 0;
  for (unsigned I = 0; I < Y.size(); ++I) {
    float Want = 0.0f;
    for (unsigned J = 0; J < 4; ++J)
      Want += X[I * 4 + J];
    if (Y[I] != Want || Z[I] != 2.0f) {
      std::printf("y[%u] is %g, the host says %g\n", I, double(Y[I]),
                  double(Want));
      return 1;
    }
  }
  std::printf("sum_loop and scale match the host\n");
}

// The loop stays a loop, jumping back to its test; locals live in local
// memory, where the DWARF places them.
// DEBUG: .target sm_{{[0-9]+}}, debug
// DEBUG-FOLD: .global .align 4 .b8 __mstage_stage_{{.*}}[4] = {4};
// DEBUG: __local_depot
// DEBUG: [[LOOP:\$L__BB[0-9_]+]]:
// DEBUG: setp.{{[a-z]+}}.u32
// DEBUG: bra{{(\.uni)?}} [[LOOP]];
// DEBUG: .section .debug_info
// A variable's location (DW_OP_addr) in the local depot:
// DEBUG: .b64 __local_depot{{[0-9]+}}

// OPT: .target sm_90{{$}}
// OPT-NOT: __local_depot
// OPT-NOT: bra
// OPT-NOT: .section .debug_info

// ONCE: {{^}}1{{$}}
// TRACE: mstage: trace: main::{{sum_loop|scale}}@{{.*}}debug-build.cpp:{{[0-9]+}}:{{[0-9]+}} (and any other kernel of a unit built with -g at -O0) compiles without optimization, with full debug information, for cuda-gdb

// LOAD: fakecuda: load ptx at -O0 with debug information
// LOAD-OPT: fakecuda: load ptx at default

// RESULT: sum_loop and scale match the host
