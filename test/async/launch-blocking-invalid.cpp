// MSTAGE_LAUNCH_BLOCKING is a boolean: anything else fails each launch with
// an mstage::error naming the kernel, the variable and its value (at
// wait() for async()); 1 and 0 launch normally.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_LAUNCH_BLOCKING=banana %t | FileCheck %s --check-prefix=BAD
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_LAUNCH_BLOCKING=banana %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_LAUNCH_BLOCKING=1 %t | FileCheck %s --check-prefix=GOOD
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_LAUNCH_BLOCKING=0 %t | FileCheck %s --check-prefix=GOOD
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::device_vector<int> V(32, 0);
  auto Inc = mstage::kernel(
      [](auto &V) { V[mstage::Thread::get().index.x] += 1; }, 1, 32);
  try {
    Inc(V);
    std::printf("launched\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  mstage::kernel_future F = mstage::async(mstage::launch::kernel, Inc, V);
  try {
    F.wait();
    std::printf("async launched\n");
  } catch (const mstage::error &E) {
    std::printf("at wait: %s\n", E.what());
  }
}

// BAD: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}launch-blocking-invalid.cpp:{{[0-9]+}}:{{[0-9]+}}': MSTAGE_LAUNCH_BLOCKING='banana' is not a boolean; use 1, on, true or yes, or 0, off, false or no
// BAD: at wait: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': MSTAGE_LAUNCH_BLOCKING='banana' is not a boolean
// GOOD: launched
// GOOD: async launched
