// mstage::atomic_ref is a real atomic in host code too (the host copy of a
// kernel, which a CPU back end runs): four threads race on each operation and
// the results match the sequential ones. The block-scope mark costs nothing
// there: x86 code has the locked instruction and no call.
//
// RUN: %mstagexx -O2 -pthread %s -o %t && %t | FileCheck %s
// RUN: %mstagexx -O2 -S %s -o - | FileCheck %s --check-prefix=ASM
// UNSUPPORTED: gpu

#include <mstage/atomic.hpp>

#include <cstdio>
#include <limits>
#include <thread>
#include <vector>

using mstage::atomic_ref;
using mstage::scope;

constexpr int Threads = 4, Iterations = 100000;

struct Counters {
  int Sum = 0;
  int Ticket = 0;
  long long Min = std::numeric_limits<long long>::max();
  unsigned Max = 0;
  float FSum = 0;
  double DMax = -1;
  float FMin = std::numeric_limits<float>::quiet_NaN();
};

__attribute__((noinline)) void work(Counters &C, int Id) {
  for (int I = 0; I < Iterations; ++I) {
    int V = Id * Iterations + I;
    atomic_ref<int, scope::block>(C.Sum).fetch_add(1,
                                                   std::memory_order_relaxed);
    atomic_ref<int> T(C.Ticket);
    int Old = T.load(std::memory_order_relaxed);
    while (!T.compare_exchange_weak(Old, Old + 1))
      ;
    atomic_ref<long long>(C.Min).fetch_min(-(long long)V * 3);
    atomic_ref<unsigned>(C.Max).fetch_max(unsigned(V) * 7);
    atomic_ref<float>(C.FSum).fetch_add(0.5f);
    atomic_ref<double, scope::block>(C.DMax).fetch_max(V * 0.25);
    atomic_ref<float>(C.FMin).fetch_min(float(V));
  }
}

int main() {
  Counters C;
  std::vector<std::thread> Pool;
  for (int Id = 0; Id < Threads; ++Id)
    Pool.emplace_back(work, std::ref(C), Id);
  for (std::thread &T : Pool)
    T.join();
  const int N = Threads * Iterations;
  std::printf("sum %s\n", C.Sum == N ? "ok" : "wrong");
  std::printf("cas %s\n", C.Ticket == N ? "ok" : "wrong");
  std::printf("min %s\n", C.Min == -(long long)(N - 1) * 3 ? "ok" : "wrong");
  std::printf("max %s\n", C.Max == unsigned(N - 1) * 7 ? "ok" : "wrong");
  std::printf("fadd %s\n", C.FSum == N * 0.5f ? "ok" : "wrong");
  std::printf("fmax %s\n", C.DMax == (N - 1) * 0.25 ? "ok" : "wrong");
  std::printf("fmin of NaN %s\n", C.FMin == 0.0f ? "ok" : "wrong");
}

// CHECK:      sum ok
// CHECK-NEXT: cas ok
// CHECK-NEXT: min ok
// CHECK-NEXT: max ok
// CHECK-NEXT: fadd ok
// CHECK-NEXT: fmax ok
// CHECK-NEXT: fmin of NaN ok

// The block-scope fetch_add is one locked instruction, with no call anywhere.
// ASM-LABEL: _Z4workR8Countersi:
// ASM-NOT:   call
// ASM:       lock{{[[:space:]]+}}incl
// ASM-COUNT-6: lock{{[[:space:]]+}}cmpxchg
// ASM-NOT:   call
// ASM:       .cfi_endproc
