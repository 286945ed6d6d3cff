// sort and sort_by_key (radix) and sort with a comparator (merge) on the
// CPU back end against std::stable_sort, over sizes 0, 1, 31, 32, 33, 1023
// and 2^20+7, for 1-, 2-, 4- and 8-byte integer keys, signed and unsigned,
// and float and double keys with negatives, zeros of both signs, infinities
// and NaNs of both signs (in the documented order: -NaN < -inf < -0.0 <
// +0.0 < +inf < +NaN); sort_by_key must keep equal keys' values in order,
// and so must sort(comp) keep records with equal fields. Data is random from
// a fixed seed, which a failure prints. With one CPU thread the blocks run
// one after another: the look-back must not wait for a block that has not
// started.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=1 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS sort-cpu cases=

#include "ScanSortChecks.h"

int main() { return runSortChecks("sort-cpu", /*Quick=*/true); }
