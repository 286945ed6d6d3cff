// Bounds and barrier checks follow the optimization level: on at -O0, off at
// -O1 and above, unless asked (-fmstage-checks, -fno-mstage-checks,
// -DMSTAGE_BOUNDS_CHECK=0/1); NDEBUG turns them off. MSTAGE_TRACE says which
// once per run, before the first launch's line, and MSTAGE_STATS above its
// table. The PTX shows the checks (a branch to __assertfail) or their
// absence, and a checked build stops an access past the end with the
// place, index and size.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %mstagexx -O0 %s -o %t/o0
// RUN: %mstagexx -O2 %s -o %t/o2
// RUN: %mstagexx -O2 -fmstage-checks %s -o %t/o2-checks
// RUN: %mstagexx -O0 -fno-mstage-checks %s -o %t/o0-no-checks
// RUN: %mstagexx -O0 -DNDEBUG %s -o %t/o0-ndebug
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 %t/o0 2>&1 | FileCheck --check-prefix=O0 %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STATS=1 %t/o2 2>&1 | FileCheck --check-prefix=O2 %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 %t/o2-checks 2>&1 | FileCheck --check-prefix=ASKED %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STATS=1 %t/o0-no-checks 2>&1 | FileCheck --check-prefix=ASKED-OFF %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_TRACE=1 %t/o0-ndebug 2>&1 | FileCheck --check-prefix=NDEBUG %s
// RUN: env MSTAGE_BACKEND=cpu %t/o2 | FileCheck --check-prefix=QUIET --implicit-check-not=bounds %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/o0.dump %t/o0 && cat %t/o0.dump/*.ptx | FileCheck --check-prefix=CHECKED %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/o2-checks.dump %t/o2-checks && cat %t/o2-checks.dump/*.ptx | FileCheck --check-prefix=CHECKED %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/o2.dump %t/o2 && cat %t/o2.dump/*.ptx | FileCheck --check-prefix=PLAIN %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t/o0-no-checks.dump %t/o0-no-checks && cat %t/o0-no-checks.dump/*.ptx | FileCheck --check-prefix=PLAIN %s
// RUN: env MSTAGE_BACKEND=cpu not --crash %t/o2-checks past-the-end 2>&1 | FileCheck --check-prefix=STOP %s
// RUN: env MSTAGE_BACKEND=cpu not --crash %t/o0 past-the-end 2>&1 | FileCheck --check-prefix=STOP %s
//
// Once, at exit, after the launches and the program's output.
// O0-NOT: bounds checks
// O0: mstage: trace: kernel
// O0-NOT: bounds checks
// O0: mstage: trace: kernel
// O0: sum 2016 2016
// O0-NEXT: mstage: trace: bounds checks: on (built at -O0)
// O2: mstage: stats: bounds checks: off (built at -O1 or above)
// O2-NEXT: mstage: stats: launches
// ASKED: mstage: trace: bounds checks: on (asked: -f[no-]mstage-checks or -DMSTAGE_BOUNDS_CHECK)
// ASKED-OFF: mstage: stats: bounds checks: off (asked: -f[no-]mstage-checks or -DMSTAGE_BOUNDS_CHECK)
// NDEBUG: mstage: trace: bounds checks: off (built with NDEBUG)
// QUIET: sum 2016 2016
// CHECKED: .entry
// CHECKED: call.uni __assertfail
// PLAIN: .entry
// PLAIN-NOT: __assertfail
// STOP: checks-follow-optimization-level.cpp:[[#READ:]]: {{.*}}: mstage: index 64 is out of bounds for vector_view of size 64

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

int main(int argc, char **argv) {
  // One past the end in the second launch when asked.
  unsigned shift = argc > 1 && !std::strcmp(argv[1], "past-the-end") ? 1 : 0;
  std::vector<int> in(64), out(64, 0);
  std::iota(in.begin(), in.end(), 0);
  auto k = mstage::kernel(
      [](const auto &in, auto &out, unsigned shift) {
        unsigned i = mstage::Thread::get().global.x;
        out[i] = in[i + shift]; // READ
      },
      1, 64);
  k(in, out, 0u);
  int first = std::accumulate(out.begin(), out.end(), 0);
  k(in, out, shift);
  std::printf("sum %d %d\n", first, std::accumulate(out.begin(), out.end(), 0));
}
