// Views of different sizes are an error naming the call and both sizes, in
// the words of the other algorithms, thrown before anything is enqueued;
// empty views do nothing (no launch, so no kernel is even compiled:
// MSTAGE_TRACE would show one).
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s --implicit-check-not="no error"
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

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
  // CHECK: mstage: inclusive_scan: the input and the output differ (10 and 9 elements); pass views of equal size
  expectError([&] { mstage::inclusive_scan(A, B); });
  // CHECK-NEXT: mstage: exclusive_scan: the input and the output differ (9 and 10 elements); pass views of equal size
  expectError([&] { mstage::exclusive_scan(B, A, 0); });
  // CHECK-NEXT: mstage: sort_by_key: the keys and the values differ (10 and 11 elements); pass views of equal size
  expectError([&] { mstage::sort_by_key(A, V); });
  mstage::inclusive_scan(Empty);
  mstage::exclusive_scan(Empty, Empty, 1);
  mstage::sort(Empty);
  mstage::sort(Empty, [](int X, int Y) { return X > Y; });
  mstage::sort_by_key(Empty, Empty);
  mstage::synchronize();
  // CHECK-NEXT: empty views: done
  std::printf("empty views: done\n");
}
