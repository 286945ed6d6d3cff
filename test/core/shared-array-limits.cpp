// shared_array is static shared memory that adds to the launch's dynamic
// shared memory, on every back end before anything runs:
//  - 40 KiB of shared_array with 10 KiB of shared_bytes launches, and so
//    does 40 KiB with 187 KiB (227 KiB, sm_90's limit, through the opt-in);
//  - 40 KiB with 188 KiB is over sm_90's limit, and the error names both
//    parts; on sm_86 (99 KiB) 40 + 60 KiB is over;
//  - 64 KiB of shared_array is over the 48 KiB a kernel's static shared
//    memory may have (ptxas's limit), even with no shared_bytes;
//  - a kernel without shared_array is held to shared_bytes alone.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck -DV=1 %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck -DV=0 %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_86 %t 2>&1 | FileCheck --check-prefix=SM86 %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

template <std::size_t Floats>
static void tryLaunch(const char *What, std::size_t SharedBytes) {
  std::vector<float> V(1, 0);
  try {
    kernel(
        [](vector_view<float> V) {
          shared_array<float, Floats> a;
          unsigned t = Thread::get().index.x;
          a[t] = 1;
          Block::get().synchronize();
          V[0] = a[(t + 1) % Block::get().range.x];
        },
        1, 1, SharedBytes)(V);
    std::printf("%s: launched, v=%g\n", What, V[0]);
  } catch (const error &E) {
    std::printf("%s: %s\n", What, E.what());
  }
}

int main() {
  tryLaunch<10 * 1024>("40+10", 10 * 1024);
  tryLaunch<10 * 1024>("40+187", 187 * 1024);
  tryLaunch<10 * 1024>("40+188", 188 * 1024);
  tryLaunch<10 * 1024>("40+60", 60 * 1024);
  tryLaunch<16 * 1024>("64+0", 0);
}

// CHECK: 40+10: launched, v=[[V]]
// CHECK-NEXT: 40+187: launched, v=[[V]]
// CHECK-NEXT: 40+188: mstage: kernel 'tryLaunch<10240ul>::kernel_L{{[0-9]+}}@{{.*}}shared-array-limits.cpp:{{[0-9]+}}:{{[0-9]+}}' has 233472 bytes of shared memory (40960 of shared_array, 192512 of shared_bytes), over sm_90's limit of 232448
// CHECK-NEXT: 40+60: launched, v=[[V]]
// CHECK-NEXT: 64+0: mstage: kernel 'tryLaunch<16384ul>::kernel_L{{[0-9]+}}@{{.*}}' has 65536 bytes of shared_array, over the limit of 49152 bytes of static shared memory per kernel; take large arrays from dynamic shared memory (shared_arena and the launch's shared_bytes)

// SM86: 40+10: launched, v=0
// SM86: 40+60: mstage: kernel '{{.*}}' has 102400 bytes of shared memory (40960 of shared_array, 61440 of shared_bytes), over sm_86's limit of 101376
