//===- large_capture.cpp - GPU suite: captures over the parameter limit ---===//
//
// Kernels whose parameters are over the kernel-parameter limit (4352 bytes
// up to sm_90, 32764 from sm_100) read them from device memory, copied at
// each launch (passes/transforms/CaptureInMemory.h). Each is checked against
// a CPU reference:
//  - a std::array<float, 2048> captured by value (8 KiB), read at every
//    thread's own index, and a struct of coefficients passed as an argument;
//  - a 36 KiB capture, over the limit of every architecture;
//  - one kernel launched 200 times without waiting, its capture changed
//    before each launch: each launch writes its own slice, which must hold
//    that launch's values (a copy reused or freed too early shows here);
//  - a mutable lambda that writes its copy of the capture: each thread has
//    its own copy, as with a capture in parameter space.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <array>
#include <cstdio>
#include <vector>

namespace {

constexpr const char *Name = "large_capture";

using namespace mstage;

struct Coefficients {
  float Scale[1500];
  float Shift;
};

unsigned wrong(const std::vector<float> &Out, const std::vector<float> &Ref) {
  unsigned Wrong = 0;
  for (size_t I = 0; I < Out.size(); ++I)
    Wrong += Out[I] != Ref[I];
  return Wrong;
}

int eightKiB() {
  constexpr unsigned N = 2048 * 4;
  std::array<float, 2048> Table;
  for (unsigned I = 0; I < Table.size(); ++I)
    Table[I] = float(I % 97) * 0.5f;
  Coefficients C;
  for (unsigned I = 0; I < 1500; ++I)
    C.Scale[I] = float(I % 13);
  C.Shift = 3.0f;
  std::vector<float> In(N), Out(N), Ref(N);
  for (unsigned I = 0; I < N; ++I)
    In[I] = float(I % 31);
  for (unsigned I = 0; I < N; ++I)
    Ref[I] = In[I] * Table[I % 2048] + C.Scale[I % 1500] + C.Shift;
  kernel(
      [Table](vector_view<float> In, vector_view<float> Out,
              Coefficients C) {
        unsigned I = Thread::get().global.x;
        if (I < In.size())
          Out[I] = In[I] * Table[I % 2048] + C.Scale[I % 1500] + C.Shift;
      },
      N / 128, 128)(In, Out, C);
  unsigned Wrong = wrong(Out, Ref);
  if (Wrong)
    std::printf("FAIL %s: 8 KiB capture: %u of %u wrong\n", Name, Wrong, N);
  return Wrong != 0;
}

int overEveryLimit() {
  constexpr unsigned K = 9216, N = K * 2; // 36 KiB
  std::array<float, K> Table;
  for (unsigned I = 0; I < K; ++I)
    Table[I] = float(I % 1013);
  std::vector<float> Out(N), Ref(N);
  for (unsigned I = 0; I < N; ++I)
    Ref[I] = Table[(I * 7) % K] + Table[K - 1 - I % K];
  kernel(
      [Table](vector_view<float> Out) {
        unsigned I = Thread::get().global.x;
        if (I < Out.size())
          Out[I] = Table[(I * 7) % K] + Table[K - 1 - I % K];
      },
      N / 256, 256)(Out);
  unsigned Wrong = wrong(Out, Ref);
  if (Wrong)
    std::printf("FAIL %s: 36 KiB capture: %u of %u wrong\n", Name, Wrong, N);
  return Wrong != 0;
}

int changingCapture() {
  constexpr unsigned Launches = 200, N = 1024;
  std::array<float, 2048> Table{};
  device_vector<float> Out(Launches * N);
  for (unsigned L = 0; L < Launches; ++L) {
    for (unsigned I = 0; I < Table.size(); ++I)
      Table[I] = float(L * 3 + I % 5);
    kernel(
        [Table, L](vector_view<float> Out) {
          unsigned I = Thread::get().global.x;
          Out[L * N + I] = Table[I] + Table[I + 1024];
        },
        N / 128, 128)(Out);
  }
  std::vector<float> Got = Out.download();
  unsigned Wrong = 0;
  for (unsigned L = 0; L < Launches; ++L)
    for (unsigned I = 0; I < N; ++I)
      Wrong += Got[L * N + I] !=
               float(L * 3 + I % 5) + float(L * 3 + (I + 1024) % 5);
  if (Wrong)
    std::printf("FAIL %s: changing capture: %u of %u wrong\n", Name, Wrong,
                Launches * N);
  return Wrong != 0;
}

int mutableCopy() {
  constexpr unsigned N = 512;
  std::array<int, 1536> Table{};
  for (unsigned I = 0; I < Table.size(); ++I)
    Table[I] = int(I);
  std::vector<int> Out(N);
  kernel(
      [Table](vector_view<int> Out) mutable {
        unsigned I = Thread::get().global.x;
        // Each thread changes its own copy: no other thread sees it.
        Table[I % 16] += int(I);
        Out[I] = Table[I % 16] + Table[1535];
      },
      N / 64, 64)(Out);
  unsigned Wrong = 0;
  for (unsigned I = 0; I < N; ++I)
    Wrong += Out[I] != int(I % 16 + I + 1535);
  if (Wrong)
    std::printf("FAIL %s: mutable capture: %u of %u wrong\n", Name, Wrong, N);
  return Wrong != 0;
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  int Failed = eightKiB() + overEveryLimit() + changingCapture() + mutableCopy();
  if (!Failed)
    std::printf("PASS %s\n", Name);
  return Failed ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
