// Ranges of different sizes are an error naming the call and both sizes,
// thrown before anything is enqueued; empty ranges do nothing (no launch,
// so no kernel is even compiled: MSTAGE_TRACE would show one).
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
#include <mstage.hpp>
#include <mstage/algorithm/scan.hpp>
#include <mstage/algorithm/sort.hpp>

#include <cstdio>

template <class F> void expectError(F Call) {
  try {
    Call();
    std::printf("no error\n");
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
}

int main() {
  mstage::device_vector<int> A(10), B(9), Empty;
  mstage::device_vector<float> V(11);
  // CHECK: mstage: inclusive_scan: the input has 10 elements and the output 9; give ranges of the same size
  expectError([&] { mstage::inclusive_scan(A, B); });
  // CHECK: mstage: exclusive_scan: the input has 9 elements and the output 10; give ranges of the same size
  expectError([&] { mstage::exclusive_scan(B, A, 0); });
  // CHECK: mstage: sort_by_key: the key range has 10 elements and the value range 11; give ranges of the same size
  expectError([&] { mstage::sort_by_key(A, V); });
  mstage::inclusive_scan(Empty);
  mstage::exclusive_scan(Empty, Empty, 1);
  mstage::sort(Empty);
  mstage::sort(Empty, [](int X, int Y) { return X > Y; });
  mstage::sort_by_key(Empty, Empty);
  mstage::synchronize();
  // CHECK: empty ranges: done
  std::printf("empty ranges: done\n");
}
