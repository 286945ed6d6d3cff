// device_vector::get(i) past the end throws an mstage::error naming the
// index and the size; in range it reads the element.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

static void get(const mstage::device_vector<int> &V, std::size_t I) {
  try {
    std::printf("get(%zu) = %d\n", I, V.get(I));
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
}

int main() {
  mstage::device_vector<int> V(10, 42), Empty;
  get(V, 9);
  // CHECK: get(9) = 42
  get(V, 10);
  // CHECK-NEXT: mstage: device_vector::get(10) of a device_vector of 10 elements
  get(V, std::size_t(-1));
  // CHECK-NEXT: mstage: device_vector::get(18446744073709551615) of a device_vector of 10 elements
  get(Empty, 0);
  // CHECK-NEXT: mstage: device_vector::get(0) of a device_vector of 0 elements
}
