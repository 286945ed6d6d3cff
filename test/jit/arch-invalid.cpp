// MSTAGE_ARCH and mstage-ptx --arch take only architectures that LLVM's NVPTX
// back end knows (its own processor table, so sm_90a too): sm_999 or garbage
// fails every launch with an error that names the variable, the value and
// the known architectures, without LLVM's raw warning, and nothing is cached;
// mstage-ptx says the same about --arch and exits with status 1.
//
// RUN: rm -rf %t.cache && %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_999 MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env MSTAGE_ARCH=garbage MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not ls %t.cache
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90a MSTAGE_CACHE=off %t 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: not %mstage_ptx %t --kernel main::kernel_L23 --arch garbage 2>&1 | FileCheck %s --check-prefix=TOOL
// RUN: %mstage_ptx %t --kernel main::kernel_L23 --arch sm_90a | FileCheck %s --check-prefix=TOOLGOOD
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
}

// BAD-NOT: not a recognized processor
// BAD: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}arch-invalid.cpp:23:20' cannot run: MSTAGE_ARCH='sm_999' is not an architecture the NVPTX back end knows (supported: sm_50, {{.*}}, sm_90, sm_90a, {{.*}})
// BAD-NOT: not a recognized processor
// GARBAGE: MSTAGE_ARCH='garbage' is not an architecture the NVPTX back end knows (supported: sm_50, {{.*}})
// GOOD: compiling kernels for sm_90a to PTX only
// GOOD: launched
// TOOL-NOT: not a recognized processor
// TOOL: mstage-ptx: error: --arch 'garbage' is not an architecture the NVPTX back end knows (supported: sm_50, {{.*}}, sm_90, {{.*}})
// TOOLGOOD: .target sm_90a
