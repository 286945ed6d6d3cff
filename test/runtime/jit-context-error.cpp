// An error that an LLVM pass reports through the LLVMContext during the JIT
// compile (here NVPTX on a variable-length array for sm_50, which has no
// dynamic alloca), whose default handler would print it and exit the program,
// fails the launch with an mstage::error that names the kernel and gives
// LLVM's message; the program goes on, and nothing is cached. The same kernel
// compiles for sm_90.
//
// RUN: rm -rf %t.cache && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_50 MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=SM50
// RUN: not ls %t.cache/*
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not %mstage_ptx %t --kernel mstage_main_L24 --arch sm_50 --grid 1 2>&1 | FileCheck %s --check-prefix=TOOL
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> o(64, 3);
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    try {
      mstage::kernel(
          [](auto &o) {
            int n = o[1];
            int a[n];
            for (int i = 0; i < n; ++i)
              a[i] = o[i + 2];
            o[0] = a[n - 1];
          },
          1, 1)(o);
      std::printf("launched\n");
    } catch (const mstage::error &e) {
      std::printf("%s\n", e.what());
    }
  }
  std::printf("the program goes on\n");
}

// SM50: mstage: kernel 'main::lambda@{{.*}}jit-context-error.cpp:24:11': LLVM cannot compile it for sm_50: {{.*}}Support for dynamic alloca introduced in PTX ISA version 7.3 and requires target sm_52.
// SM50-NEXT: mstage: kernel 'main::lambda@{{.*}}jit-context-error.cpp:24:11': LLVM cannot compile it for sm_50: {{.*}}dynamic alloca
// SM50-NEXT: the program goes on
// SM90: launched
// SM90-NEXT: launched
// SM90-NEXT: the program goes on
// TOOL: mstage-ptx: error: mstage: kernel 'main::lambda@{{.*}}jit-context-error.cpp:24:11': LLVM cannot compile it for sm_50: {{.*}}dynamic alloca
