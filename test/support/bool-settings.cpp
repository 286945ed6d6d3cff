// Boolean MSTAGE_* variables are parsed one way: 1, on, true, yes and 0, off,
// false, no, in any case (MSTAGE_FAST_MATH=false no longer turns fast math
// on, nor MSTAGE_TRACE=off the trace); anything else fails the launch with an
// mstage::error naming the variable and its value. On the CPU back end and in
// PTX-only mode.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH=false %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=on MSTAGE_FAST_MATH=off %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=yes MSTAGE_FAST_MATH=No %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=TRUE MSTAGE_FAST_MATH=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH= %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH=true %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH=On %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH=yes %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 MSTAGE_FAST_MATH=1 %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_TRACE=1 MSTAGE_FAST_MATH=no %t 2>&1 | FileCheck %s --check-prefix=PTXOFF
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_TRACE=1 MSTAGE_FAST_MATH=yes %t 2>&1 | FileCheck %s --check-prefix=PTXON
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=off %t 2>&1 | FileCheck %s --check-prefix=NOTRACE
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=false %t 2>&1 | FileCheck %s --check-prefix=NOTRACE
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_FAST_MATH=maybe %t 2>&1 | FileCheck %s --check-prefix=BADFAST
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=off MSTAGE_TRACE=2 %t 2>&1 | FileCheck %s --check-prefix=BADTRACE
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<float> v(32, 1.5f);
  try {
    mstage::kernel([](auto &v) { v[0] = v[1] / v[2]; }, 1, 32)(v);
    std::printf("launched\n");
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}

// OFF: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' grid 1x1x1 block 32x1x1 shared 0 backend cpu
// OFF: launched
// ON: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' grid 1x1x1 block 32x1x1 shared 0 fast-math backend cpu
// ON: launched
// PTXOFF: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' grid 1x1x1 block 32x1x1 shared 0 staged
// PTXOFF: launched
// PTXON: mstage: trace: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' grid 1x1x1 block 32x1x1 shared 0 fast-math staged
// PTXON: launched
// NOTRACE-NOT: trace
// NOTRACE: launched
// BADFAST: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}bool-settings.cpp:32:20': MSTAGE_FAST_MATH='maybe' is not a boolean; use 1, on, true or yes, or 0, off, false or no
// BADTRACE: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}bool-settings.cpp:32:20': MSTAGE_TRACE='2' is not a boolean; use 1, on, true or yes, or 0, off, false or no
