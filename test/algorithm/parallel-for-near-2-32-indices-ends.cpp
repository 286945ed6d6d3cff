// parallel_for over 2^32 - 255 ... 2^32 - 1 indices ended never: with one
// thread per index the grid is 2^24 blocks of 256, and the 32-bit stride,
// 2^32, wrapped to 0, so each thread looped on its own index for ever. The
// index is 32-bit only where the last index plus the stride fits. PTX-only
// mode: at 2^32 - 255 and 2^32 - 1 indices the kernel is straight-line code
// (its only label is the exit; it was a loop of bra.uni to itself), and
// above 2^32 it has 64-bit arithmetic; the common case, a million indices,
// has none. The CPU back end runs 2-D and 1-D bodies and counts each index
// with an atomic against the host's count. (A CPU run of 2^32 indices takes
// minutes here, some 15 ns an index; the GPU suite's algorithm_properties
// launches these counts in PTX-only mode too.)
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: rm -rf %t.a %t.b %t.c %t.d
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.a %t 401 10710641
// RUN: cat %t.a/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=STRAIGHT
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.b %t 65537 65535
// RUN: cat %t.b/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=STRAIGHT
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.c %t 65536 65537
// RUN: cat %t.c/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=WIDE
// RUN: env MSTAGE_CACHE=off MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d %t 1000 1000
// RUN: cat %t.d/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s --check-prefix=NARROW
// RUN: env MSTAGE_BACKEND=cpu %t 1001 2999 | FileCheck %s --check-prefix=CPU
// RUN: env MSTAGE_BACKEND=cpu %t 1 3000001 | FileCheck %s --check-prefix=CPU

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  long long Rows = std::atoll(Argv[1]), Cols = std::atoll(Argv[2]);
  mstage::device_vector<unsigned long long> Hits(1, 0ull);
  unsigned long long *H = Hits.data();
  // Counts the diagonal and the last column: every index of a wrong loop
  // would count again.
  const int Last = int(Cols - 1);
  mstage::parallel_for(mstage::bounds<2>{Rows, Cols}, [=](int J, int I) {
    if (I == J || I == Last)
      mstage::atomic_ref<unsigned long long>(*H).fetch_add(1ull);
  });
  unsigned long long Want = 0;
  for (long long J = 0; J < Rows; ++J)
    Want += (J < Cols) + (J != Cols - 1);
  if (mstage_rt_executes() == 1)
    std::printf("%s rows=%lld cols=%lld hits=%llu want=%llu\n",
                Hits.download()[0] == Want ? "PASS" : "FAIL", Rows, Cols,
                Hits.download()[0], Want);
}

// STRAIGHT-LABEL: .entry
// STRAIGHT-NOT: bra.uni
// STRAIGHT: {{^\$L__BB0_[0-9]+}}:
// STRAIGHT-NEXT: ret;

// WIDE-LABEL: .entry
// WIDE: {{[[:space:]](add|mul|mad|setp)\.[a-z.]*(s64|u64)}}

// NARROW-LABEL: .entry
// NARROW-NOT: {{[[:space:]](add|sub|mul|mad|div|rem|shl|setp|selp)\.[a-z.]*(s64|u64|b64)}}
// NARROW: ret;

// CPU: PASS
