// The JIT's loop-unrolling defaults, and MSTAGE_LLVM_ARGS overriding them.
//  - A grid-stride loop whose bounds are staged has a trip count that
//    divides by the constant stride; the JIT unrolls it 8 times at run time
//    (8 loads, and one more in the prolog for the leftover iterations; read-
//    only, as in and out are different allocations: ld.global.nc). With
//    LLVM's default SCEV expansion budget it stays rolled (one load).
//  - A bad MSTAGE_LLVM_ARGS is an error that names the kernel and the option.
//
// A release build (NDEBUG): bounds checks would keep the loop rolled.
// RUN: rm -rf %t.default %t.rolled && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.default %t
// RUN: cat %t.default/*.ptx | FileCheck %s --check-prefix=UNROLLED
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.rolled MSTAGE_LLVM_ARGS=-scev-cheap-expansion-budget=4 %t
// RUN: cat %t.rolled/*.ptx | FileCheck %s --check-prefix=ROLLED
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_LLVM_ARGS="-unroll-count=2 -no-such-option" not %t 2>&1 | FileCheck %s --check-prefix=BAD
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> in(1000003, 1), out(64 * 128);
  try {
    mstage::kernel(
        [](const auto &in, auto &out) {
          unsigned n = mstage::stage(in.size());
          unsigned i = mstage::Thread::get().global.x;
          int sum = 0;
          for (; i < n; i += 64 * 128)
            sum += in[i];
          out[mstage::Thread::get().global.x] = sum;
        },
        64, 128)(in, out);
  } catch (const mstage::error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

// UNROLLED-COUNT-8: ld.global.nc.b32
// ROLLED-COUNT-1: ld.global.nc.b32
// ROLLED-NOT: ld.global.nc.b32
// BAD: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}jit-unroll.cpp:{{[0-9]+}}:9': MSTAGE_LLVM_ARGS='-unroll-count=2 -no-such-option' is not valid: Unknown command line argument '-no-such-option'.
