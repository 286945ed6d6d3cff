// A launch whose code is loaded makes two driver calls: cuCtxGetCurrent (is
// the device's context the thread's?) and cuLaunchKernel; nothing is
// re-evaluated through the driver. The first launch of a kernel's generic
// code looks up only the entry it runs (GenericCode.h: the other kernels of
// the unit, and the other entry, are not loaded onto the GPU), and a later
// launch that needs the other entry (the same vector twice) looks that one
// up then. The uses that change what a launch runs: the same vector twice,
// a vector resized (a new allocation), another stream, two threads at once.
// On the fake driver (Inputs/FakeCudaDriver.cpp), which prints each call
// (FAKECUDA_CALLS=1) and each function launched (FAKECUDA_LAUNCHES=1).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=generic FAKECUDA_CALLS=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,GENERIC
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_CALLS=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPECIALIZED
// UNSUPPORTED: gpu

// The generic code's first launches: one lookup each, of the entry they run.
// GENERIC-LABEL: first
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuModuleGetFunction
// GENERIC-NEXT: fakecuda: call cuFuncGetAttribute
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[SCALE:_ZN[A-Za-z0-9_]+]]8disjointE{{$}}
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuModuleGetFunction
// GENERIC-NEXT: fakecuda: call cuFuncGetAttribute
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[ZERO:_ZN[A-Za-z0-9_]+]]8disjointE{{$}}
// GENERIC-NEXT: steady
// SPECIALIZED-LABEL: steady

// Steady launches: the two calls and nothing else, three steps of two
// kernels.
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S:_ZN[A-Za-z0-9_]+]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[Z:_ZN[A-Za-z0-9_]+]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[Z]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[Z]]
// CHECK-NEXT: same vector twice

// The same allocation twice runs the plain entry, looked up now, once.
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuModuleGetFunction
// GENERIC-NEXT: fakecuda: call cuFuncGetAttribute
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[SCALE]]E{{$}}
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[SCALE]]E{{$}}
// GENERIC-NEXT: apart again
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[SCALE]]8disjointE{{$}}
// A vector resized (a new allocation) is still apart: no new lookup.
// CHECK-LABEL: resized
// CHECK-NOT: cuModuleGetFunction
// CHECK: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S]]
// Another stream first waits for the vectors' work on the current stream
// (an event recorded there, waited for on the other, per vector), then
// launches; its second launch is again the two calls.
// CHECK:      other stream
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuEventCreate
// CHECK:      fakecuda: call cuStreamWaitEvent
// CHECK:      fakecuda: call cuStreamWaitEvent
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuLaunchKernel
// CHECK-NEXT: fakecuda: launch [[S]]
// CHECK-NEXT: fakecuda: call cuCtxGetCurrent
// CHECK-NEXT: fakecuda: call cuStreamSynchronize
// Two threads launch the same kernel object: the entry is looked up by
// neither again, and all eight launches run it.
// CHECK-NEXT: two threads
// CHECK-NOT: cuModuleGetFunction
// CHECK-COUNT-8: fakecuda: launch [[S]]
// CHECK-NOT: cuModuleGetFunction
// CHECK: end
// CHECK-NOT: cuModuleGetFunction

#include <mstage.hpp>

#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

using namespace mstage;

int main() {
  constexpr size_t N = 1024;
  float Factor = 2.0f;
  device_vector<float> A(std::vector<float>(N, 1.0f)), B(N);
  auto Scale = kernel(
      [Factor](const auto &In, auto &Out) {
        float F = stage(Factor);
        size_t I = Thread::get().global.x;
        Out[I] = In[I] * F;
      },
      N / 256, 256);
  auto Zero = kernel(
      [N](auto &U) {
        size_t Last = stage(N) - 1;
        if (Thread::get().global.x == 0)
          U[Last] = 0.0f;
      },
      1, 32);
  current_stream().synchronize();
  jit_wait(); // the generic code is loaded (by the compile pool) by now
  std::fprintf(stderr, "first\n");
  Scale(std::as_const(A), B);
  Zero(B);
  std::fprintf(stderr, "steady\n");
  for (int Step = 0; Step < 3; ++Step) {
    Scale(std::as_const(A), B);
    Zero(B);
  }
  std::fprintf(stderr, "same vector twice\n");
  Scale(std::as_const(B), B);
  Scale(std::as_const(B), B);
  std::fprintf(stderr, "apart again\n");
  Scale(std::as_const(A), B);
  device_vector<float> C(std::vector<float>(2 * N, 1.0f));
  B.resize(2 * N);
  std::fprintf(stderr, "resized\n");
  Scale(std::as_const(C), B);
  stream Other;
  std::fprintf(stderr, "other stream\n");
  Scale.on(Other)(std::as_const(A), B);
  Scale.on(Other)(std::as_const(A), B);
  Other.synchronize();
  std::fprintf(stderr, "two threads\n");
  device_vector<float> D(N), E(N);
  std::thread T([&] {
    for (int I = 0; I < 4; ++I)
      Scale(std::as_const(A), D);
    current_stream().synchronize();
  });
  for (int I = 0; I < 4; ++I)
    Scale(std::as_const(A), E);
  T.join();
  current_stream().synchronize();
  std::fprintf(stderr, "end\n");
  return 0;
}
