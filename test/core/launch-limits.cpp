// Launch shapes no GPU takes are errors on every back end, before anything is
// compiled or run, so that a program tested on the CPU back end or in
// PTX-only mode does not fail later on a GPU: grid.y or grid.z over 65535,
// grid.x of 2^31, block.z over 64, more than 1024 threads per block, and more
// dynamic shared memory than the target has (sm_90: 227 KiB, sm_86: 99 KiB;
// the CPU back end takes sm_90's). Each error names the kernel, the extent,
// its value and the limit; shapes at the limits launch.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck --check-prefixes=CHECK,CPU -DV=1 %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck -DV=0 %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_86 %t 2>&1 | FileCheck --check-prefix=SM86 %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

static void tryLaunch(const char *What, dim3 Grid, dim3 Block,
                      std::size_t SharedBytes) {
  std::vector<int> V(1, 0);
  try {
    kernel([](auto &V) { V[0] = 1; }, Grid, Block, SharedBytes)(V);
    std::printf("%s: launched, v=%d\n", What, V[0]);
  } catch (const error &E) {
    std::printf("%s: %s\n", What, E.what());
  }
}

int main() {
  tryLaunch("grid.y 65535", {1, 65535, 1}, 1, 0);
  tryLaunch("grid.z 65535", {1, 1, 65535}, 1, 0);
  tryLaunch("block.z 64", 1, {1, 1, 64}, 0);
  tryLaunch("block 1024", 1, {32, 32, 1}, 0);
  tryLaunch("shared 99 KiB", 1, 32, 99 * 1024);
  tryLaunch("shared 227 KiB", 1, 32, 227 * 1024);
  tryLaunch("grid.y 65536", {1, 65536, 1}, 1, 0);
  tryLaunch("grid.z 65536", {1, 1, 65536}, 1, 0);
  tryLaunch("grid.x 2^31", {2147483648u, 1, 1}, 1, 0);
  tryLaunch("block.z 65", 1, {1, 1, 65}, 0);
  tryLaunch("block.x 1025", 1, 1025, 0);
  tryLaunch("block 32x32x2", 1, {32, 32, 2}, 0);
  tryLaunch("shared 227 KiB + 1", 1, 32, 227 * 1024 + 1);
}

// CHECK: grid.y 65535: launched, v=[[V]]
// CHECK-NEXT: grid.z 65535: launched, v=[[V]]
// CHECK-NEXT: block.z 64: launched, v=[[V]]
// CHECK-NEXT: block 1024: launched, v=[[V]]
// CHECK-NEXT: shared 99 KiB: launched, v=[[V]]
// CHECK-NEXT: shared 227 KiB: launched, v=[[V]]
// CHECK-NEXT: grid.y 65536: mstage: kernel 'tryLaunch::kernel_L{{[0-9]+}}@{{.*}}launch-limits.cpp:{{[0-9]+}}:{{[0-9]+}}' has grid.y 65536, over sm_90's limit of 65535
// CPU-SAME: ; the CPU back end takes only what a GPU takes
// CHECK-NEXT: grid.z 65536: mstage: kernel '{{.*}}' has grid.z 65536, over sm_90's limit of 65535
// CHECK-NEXT: grid.x 2^31: mstage: kernel '{{.*}}' has grid.x 2147483648, over sm_90's limit of 2147483647
// CHECK-NEXT: block.z 65: mstage: kernel '{{.*}}' has block.z 65, over sm_90's limit of 64
// CHECK-NEXT: block.x 1025: mstage: kernel '{{.*}}' has block.x 1025, over sm_90's limit of 1024
// CHECK-NEXT: block 32x32x2: mstage: kernel '{{.*}}' has block 32x32x2, 2048 threads per block, over sm_90's limit of 1024
// CHECK-NEXT: shared 227 KiB + 1: mstage: kernel '{{.*}}' has shared_bytes 232449 (dynamic shared memory), over sm_90's limit of 232448

// SM86: shared 99 KiB: launched, v=0
// SM86-NEXT: shared 227 KiB: mstage: kernel '{{.*}}' has shared_bytes 232448 (dynamic shared memory), over sm_86's limit of 101376
// SM86: grid.y 65536: mstage: kernel '{{.*}}' has grid.y 65536, over sm_86's limit of 65535
