// The generic code's disjoint entry (passes/aot: NAME::disjoint, the
// kernel's symbol one deeper, with ld.global.nc and alias scopes) runs a launch whose views are in different
// allocations; a launch that passes one allocation twice runs the plain
// entry. On the fake driver (Inputs/FakeCudaDriver.cpp), which prints the
// function each launch ran; MSTAGE_JIT=async makes both launches generic.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

// CHECK: apart
// CHECK-NEXT: fakecuda: launch [[K:_ZN[A-Za-z0-9_]+]]8disjointE{{$}}
// CHECK-NEXT: same allocation twice
// CHECK-NEXT: fakecuda: launch [[K]]E{{$}}

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::device_vector<float> A(256), B(256);
  auto Copy = mstage::kernel(
      [](auto &Out, const auto &In) {
        unsigned X = mstage::Thread::get().global.x;
        for (unsigned J = 0; J < 4; ++J)
          Out[J * 64 + X] = In[J * 64 + X];
      },
      1, 64);
  std::fprintf(stderr, "apart\n");
  Copy(A, B);
  std::fprintf(stderr, "same allocation twice\n");
  Copy(A, A);
  return 0;
}
