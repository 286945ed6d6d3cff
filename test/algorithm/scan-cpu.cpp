// inclusive_scan and exclusive_scan on the CPU back end against
// std::inclusive_scan and std::exclusive_scan, over sizes 0, 1, 31, 32, 33,
// 1023 and 2^20+7 (a partial last tile, one tile, many tiles waiting on
// each other's look-back), for 1-, 4-, 8- and 12-byte element types, with
// commutative operators and a non-commutative one (composing affine maps,
// so that an operand out of order shows), out of place and in place, on the
// current stream and on a stream of its own. Data is random from a fixed
// seed, which a failure prints. With one CPU thread the blocks run one after
// another: the look-back must not wait for a block that has not started.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS scan-cpu cases=

#include "ScanSortChecks.h"

int main() { return runScanChecks("scan-cpu", /*Quick=*/true); }
