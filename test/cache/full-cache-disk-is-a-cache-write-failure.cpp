// A full disk under the cache (ENOSPC, on a real full tmpfs mounted in a
// namespace of the test's own) is the cache's failure, not ptxas's: one
// warning names the cache directory and the errno text, the disk cache is
// off (memory only), the launch goes on with the compiled PTX, and ptxas
// stays on: the next kernel gets its cubin (its files then go to the
// system's temporary directory). This holds where mstage writes the PTX for
// ptxas (FULL), where ptxas cannot write its cubin (PTXAS-FULL; the fake
// ptxas fills the disk first, then fails as a real one would; its message
// is lost with its log, on the same disk), and where only the entry cannot
// be written (ENTRY-FULL, ptxas off). Before, the first two said that ptxas
// failed and turned it off for the process.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: printf '#!/bin/sh\ncp "$2" "$4"\n' > %t.ptxas && chmod +x %t.ptxas
// RUN: printf '#!/bin/sh\nhead -c 4000000 /dev/zero > %t.d/fill2 2>/dev/null\ncp "$2" "$4" 2>/dev/null || { echo "ptxas fatal   : Could not write output file $4" >&2; exit 1; }\n' > %t.filling-ptxas && chmod +x %t.filling-ptxas
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: unshare -rm sh -c 'mount -t tmpfs -o size=256k tmpfs %t.d && mkdir %t.d/cache && (head -c 4000000 /dev/zero > %t.d/fill 2>/dev/null; true) && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.d/cache MSTAGE_PTXAS=%t.ptxas MSTAGE_TRACE=1 %t > %t.full 2>&1'
// RUN: FileCheck %s --check-prefix=FULL -DDIR=%t.d/cache < %t.full
// RUN: unshare -rm sh -c 'mount -t tmpfs -o size=256k tmpfs %t.d && mkdir %t.d/cache && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.d/cache MSTAGE_PTXAS=%t.filling-ptxas MSTAGE_TRACE=1 %t > %t.ptxas-full 2>&1'
// RUN: FileCheck %s --check-prefix=PTXAS-FULL -DDIR=%t.d/cache < %t.ptxas-full
// RUN: unshare -rm sh -c 'mount -t tmpfs -o size=256k tmpfs %t.d && mkdir %t.d/cache && (head -c 4000000 /dev/zero > %t.d/fill 2>/dev/null; true) && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.d/cache MSTAGE_PTXAS=off MSTAGE_TRACE=1 %t > %t.entry-full 2>&1'
// RUN: FileCheck %s --check-prefix=ENTRY-FULL -DDIR=%t.d/cache < %t.entry-full
// REQUIRES: tmpfs-namespace
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>

int main() {
  int *Out = nullptr; // never dereferenced in PTX-only mode
  mstage::kernel(
      [](int *Out) {
        if (Out)
          Out[0] = 1;
      },
      1, 32)(Out);
  std::printf("first launched\n");
  std::fflush(stdout);
  mstage::kernel(
      [](int *Out) {
        if (Out)
          Out[1] = 2;
      },
      1, 32)(Out);
  std::printf("second launched\n");
}

// FULL-NOT: loaded as PTX from now on
// FULL: mstage: cannot use the kernel cache at [[DIR]]: cannot write [[DIR]]/ptxas-{{.*}}.ptx.tmp: No space left on device; caching kernels in memory only
// FULL-NEXT: cache miss: {{.*}} (ptx)
// FULL: first launched
// FULL: cache miss: {{.*}} (cubin)
// FULL: second launched

// PTXAS-FULL-NOT: loaded as PTX from now on
// PTXAS-FULL-NOT: rejects the PTX
// PTXAS-FULL: mstage: cannot use the kernel cache at [[DIR]]: {{.*}}filling-ptxas -arch=sm_90 failed ({{.*}}): No space left on device; caching kernels in memory only
// PTXAS-FULL-NEXT: cache miss: {{.*}} (ptx)
// PTXAS-FULL: first launched
// PTXAS-FULL: cache miss: {{.*}} (cubin)
// PTXAS-FULL: second launched

// ENTRY-FULL: mstage: cannot use the kernel cache at [[DIR]]: cannot write [[DIR]]/{{.*}}.mstage: No space left on device; caching kernels in memory only
// ENTRY-FULL: first launched
// ENTRY-FULL: second launched
