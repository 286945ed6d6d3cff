// A launch whose code is loaded makes two driver calls: cuCtxGetCurrent (is
// the device's context the thread's?) and cuLaunchKernel; nothing is
// looked up or re-evaluated through the driver. The generic code's entries
// are looked up by the compile pool after the module's load (GenericCode.h),
// so that its first launches too make the two calls only. The uses that
// change what a launch runs: the same vector twice (the plain entry), a
// vector resized (a new allocation), another stream, two threads at once.
// On the fake driver (Inputs/FakeCudaDriver.cpp), which prints each call
// (FAKECUDA_CALLS=1) and each function launched (FAKECUDA_LAUNCHES=1).
// MSTAGE_OCCUPANCY=off: the occupancy tuning's events on a specialization's
// first two launches are test/cuda/occupancy-tuning.cpp's.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=generic MSTAGE_OCCUPANCY=off FAKECUDA_CALLS=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,GENERIC
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_OCCUPANCY=off FAKECUDA_CALLS=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPECIALIZED
// UNSUPPORTED: gpu

// The module of generic code is loaded, then its four entries looked up
// (two kernels, each with its disjoint entry), before any launch.
// GENERIC: fakecuda: call cuModuleLoadDataEx
// GENERIC-COUNT-4: fakecuda: call cuModuleGetFunction
// GENERIC-NOT: cuModuleGetFunction
// GENERIC: first
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[SCALE:_ZN[A-Za-z0-9_]+]]8disjointE{{$}}
// GENERIC-NEXT: fakecuda: call cuCtxGetCurrent
// GENERIC-NEXT: fakecuda: call cuLaunchKernel
// GENERIC-NEXT: fakecuda: launch [[ZERO:_ZN[A-Za-z0-9_]+]]8disjointE{{$}}
// GENERIC-NEXT: steady
// Under MSTAGE_JIT=sync no launch runs the generic code: its module is not
// loaded before the first launch.
// SPECIALIZED-NOT: cuModuleLoadDataEx
// SPECIALIZED: {{^}}first{{$}}
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

// The same allocation twice runs the plain entry.
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
// Two threads launch the same kernel object: all eight launches run its
// code, and nothing is looked up.
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
