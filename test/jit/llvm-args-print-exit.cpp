// MSTAGE_LLVM_ARGS rejects LLVM's options for its tools that print instead of
// setting something (-version, which exited the program with status 0 at its
// first launch; -help, which crashed it; -print-options): the launch fails
// with an mstage::error naming the kernel and the option, and the program
// goes on.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_LLVM_ARGS=-version %t 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_LLVM_ARGS=--help %t 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_LLVM_ARGS="-unroll-count=2 -help-hidden -print-options" %t 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_LLVM_ARGS=-unroll-count=2 %t 2>&1 | FileCheck %s --check-prefix=FINE
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(32, 1);
  try {
    mstage::kernel([](auto &v) { v[0] += v[1]; }, 1, 32)(v);
    std::printf("launched\n");
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
  std::printf("the program goes on\n");
}

// VERSION: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}llvm-args-print-exit.cpp:21:20': MSTAGE_LLVM_ARGS='-version' is not valid: '-version' is for LLVM's tools: it prints, and may end the program.
// VERSION-NEXT: the program goes on
// HELP: MSTAGE_LLVM_ARGS='--help' is not valid: '--help' is for LLVM's tools: it prints, and may end the program.
// HELP-NEXT: the program goes on
// PRINT: MSTAGE_LLVM_ARGS='-unroll-count=2 -help-hidden -print-options' is not valid: '-help-hidden' is for LLVM's tools: it prints, and may end the program. '-print-options' is for LLVM's tools: it prints, and may end the program.
// PRINT-NEXT: the program goes on
// FINE: launched
// FINE-NEXT: the program goes on
