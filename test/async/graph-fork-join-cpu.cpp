// A capture across two streams, as in CUDA: an event recorded on the captured
// stream and waited for by another stream forks that stream into the
// capture, and an event recorded there and waited for by the captured stream
// joins it back. On the CPU back end the second stream's work is recorded
// too (nothing runs while capturing) and every replay runs it, in order; the
// replays are compared with a host loop. After the capture, the second
// stream runs its work at once again.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  constexpr unsigned N = 4;
  mstage::stream S, Side;
  std::vector<int> HostA = {1, 2, 3, 4}, HostB = {100, 200, 300, 400};
  mstage::device_vector<int> A(HostA), B(HostB);
  A.use_on(S);
  B.use_on(Side);
  // A[i] = A[i] * 2 + 1 on S; on Side, B[i] += A[i] (after the fork);
  // then on S, A[i] += B[i] (after the join).
  auto Twice = mstage::kernel(
      [](auto &A) {
        unsigned I = mstage::Thread::get().index.x;
        A[I] = A[I] * 2 + 1;
      },
      1, N);
  auto AddA = mstage::kernel(
      [](auto &B, const auto &A) {
        unsigned I = mstage::Thread::get().index.x;
        B[I] += A[I];
      },
      1, N);
  auto AddB = mstage::kernel(
      [](auto &A, const auto &B) {
        unsigned I = mstage::Thread::get().index.x;
        A[I] += B[I];
      },
      1, N);
  mstage::graph G = mstage::capture(S, [&] {
    Twice.on(S)(A);
    mstage::event Fork = S.record();
    Side.wait(Fork);
    AddA.on(Side)(B, std::as_const(A));
    mstage::event Join = Side.record();
    S.wait(Join);
    AddB.on(S)(A, std::as_const(B));
  });
  std::printf("after the capture: %s\n",
              A.download() == HostA && B.download() == HostB ? "unchanged"
                                                              : "CHANGED");
  // CHECK: after the capture: unchanged
  constexpr int Replays = 3;
  for (int R = 0; R < Replays; ++R)
    G.launch(S);
  S.synchronize();
  std::vector<int> WantA = HostA, WantB = HostB;
  for (int R = 0; R < Replays; ++R)
    for (unsigned I = 0; I < N; ++I) {
      WantA[I] = WantA[I] * 2 + 1;
      WantB[I] += WantA[I];
      WantA[I] += WantB[I];
    }
  std::vector<int> GotA = A.download(), GotB = B.download();
  for (unsigned I = 0; I < N; ++I)
    std::printf("%d %d %s\n", GotA[I], GotB[I],
                GotA[I] == WantA[I] && GotB[I] == WantB[I] ? "same"
                                                           : "DIFFERENT");
  // CHECK-COUNT-4: {{^-?[0-9]+ -?[0-9]+ same$}}
  // The side stream left the capture with its end: its work runs now.
  AddA.on(Side)(B, std::as_const(A));
  Side.synchronize();
  std::printf("side after the capture: %s\n",
              B.get(0) == WantB[0] + WantA[0] ? "ran" : "NOT RUN");
  // CHECK: side after the capture: ran
  // A graph that forks without waiting for an event of the capture does not
  // take the other stream: an event recorded before the capture.
  mstage::event Before = S.record();
  mstage::graph H = mstage::capture(S, [&] {
    Side.wait(Before);
    AddA.on(Side)(B, std::as_const(A));
  });
  Side.synchronize();
  std::printf("event from before the capture: %s\n",
              B.get(0) == WantB[0] + 2 * WantA[0] ? "ran at once" : "RECORDED");
  // CHECK: event from before the capture: ran at once
}
