// An architecture that NVPTX knows but mstage does not support (sm_20 to
// sm_37: no ptxas or driver of a supported CUDA takes them) is MSTAGE_ARCH's
// error, named at the first launch with the supported range, on every back
// end that compiles: it is not compiled, handed to ptxas, taken for a
// broken ptxas ("loaded as PTX from now on"), or cached. sm_50, the oldest
// supported, compiles. -mstage-arch says the same at compile time.
//
// RUN: rm -rf %t.cache && %mstagexx -O2 %s -o %t
// RUN: printf '#!/bin/sh\necho "ptxas fatal   : Value '"'"'sm_20'"'"' is not defined for option '"'"'gpu-name'"'"'" >&2\nexit 255\n' > %t.ptxas && chmod +x %t.ptxas
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_20 MSTAGE_PTXAS=%t.ptxas MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=OLD --implicit-check-not=ptxas
// RUN: env MSTAGE_ARCH=sm_37 MSTAGE_PTXAS=%t.ptxas MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=OLD37 --implicit-check-not=ptxas
// RUN: not ls %t.cache
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_50 MSTAGE_PTXAS=off MSTAGE_CACHE=off %t 2>&1 | FileCheck %s --check-prefix=OLDEST
// RUN: not %mstagexx -O2 -mstage-arch=sm_30 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=AOT
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <vector>

int main() {
  std::vector<int> v(32, 1);
  for (int I = 0; I < 2; ++I) {
    try {
      mstage::kernel([](auto &v) { v[0] += v[1]; }, 1, 32)(v);
      std::printf("launched\n");
    } catch (const mstage::error &e) {
      std::printf("%s\n", e.what());
    }
  }
}

// OLD: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' cannot run: MSTAGE_ARCH='sm_20' is older than the oldest architecture mstage supports, sm_50 (supported: sm_50, {{.*}}, sm_90, {{.*}})
// OLD-NEXT: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' cannot run: MSTAGE_ARCH='sm_20' is older
// OLD37: MSTAGE_ARCH='sm_37' is older than the oldest architecture mstage supports, sm_50 (supported: sm_50,
// OLD37-NEXT: MSTAGE_ARCH='sm_37' is older
// OLDEST: compiling kernels for sm_50 to PTX only
// OLDEST: launched
// OLDEST-NEXT: launched
// AOT: error: mstage: -mstage-arch=sm_30: 'sm_30' is older than the oldest architecture mstage supports, sm_50 (supported: sm_50, {{.*}}), or none
