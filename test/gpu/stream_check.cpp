//===- stream_check.cpp - GPU suite: ordered captures and host accesses ---===//
//
// Correct programs of the kinds MSTAGE_CHECK=streams now sees, at sizes
// where a GPU would show a missing order (run-suite.sh's streamcheck mode
// fails on any report):
//  - a pipeline on two streams whose kernels reach their data only through
//    views captured in their lambdas, ordered by events each way;
//  - managed memory that a kernel on a stream writes and the host reads
//    after waiting for an event, then writes and a kernel reads again;
//  - pinned buffers refilled by the host only after the upload's stream is
//    synchronized, while a second buffer's upload is in flight.
// Every result is compared with a CPU reference computed here.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "stream_check";
constexpr unsigned Block = 256;
unsigned N = 1 << 20; // MSTAGE_SUITE_QUICK=1: 1 << 12

SuiteChecks Checks(Name);

unsigned blocks() { return (N + Block - 1) / Block; }

// A[i] = A[i] * 3 + 1 on S1, then B[i] += A[i] on S2, Rounds times, the
// kernels reaching A and B only through their captures.
void capturedPipeline() {
  constexpr int Rounds = 20;
  mstage::stream S1, S2;
  mstage::device_vector<unsigned> A(N, S1), B(N, S2);
  A.fill(1u, S1);
  B.fill(0u, S2);
  S1.synchronize();
  S2.synchronize();
  auto VA = A.view();
  auto VB = B.view();
  auto CA = std::as_const(A).view();
  auto Grow = mstage::kernel(
      [VA] {
        unsigned I = mstage::Thread::get().global.x;
        if (I < VA.size())
          VA[I] = VA[I] * 3u + 1u;
      },
      blocks(), Block);
  auto Gather = mstage::kernel(
      [CA, VB] {
        unsigned I = mstage::Thread::get().global.x;
        if (I < VB.size())
          VB[I] += CA[I];
      },
      blocks(), Block);
  for (int R = 0; R < Rounds; ++R) {
    Grow.on(S1)();
    S2.wait(S1.record());
    Gather.on(S2)();
    S1.wait(S2.record());
  }
  std::vector<unsigned> GotB;
  B.download(GotB, S2);
  S2.synchronize();
  unsigned WantA = 1, WantB = 0;
  for (int R = 0; R < Rounds; ++R) {
    WantA = WantA * 3u + 1u;
    WantB += WantA;
  }
  bool OK = GotB == std::vector<unsigned>(N, WantB) &&
            A.download() == std::vector<unsigned>(N, WantA);
  Checks.report(OK, "two streams in turn through captured views, events each way");
}

void managedRoundTrip() {
  mstage::stream S;
  mstage::managed_vector<unsigned> M(N);
  std::iota(M.begin(), M.end(), 0u);
  auto Square = mstage::kernel(
      [](auto &X) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          X[I] = X[I] * X[I];
      },
      blocks(), Block);
  Square.on(S)(M);
  mstage::event Done = S.record();
  Done.synchronize();
  bool OK = true;
  for (unsigned I = 0; I < N; ++I)
    OK &= std::as_const(M)[I] == I * I;
  for (unsigned I = 0; I < N; ++I)
    M[I] = I + 1;
  Square.on(S)(M);
  S.synchronize();
  unsigned Sum = 0, Want = 0;
  for (unsigned X : std::as_const(M))
    Sum += X;
  for (unsigned I = 0; I < N; ++I)
    Want += (I + 1) * (I + 1);
  Checks.report(OK && Sum == Want, "managed memory: host reads after an event, "
                            "writes after a synchronization");
}

void pinnedDoubleBuffer() {
  constexpr int Chunks = 8;
  mstage::stream S;
  mstage::device_vector<unsigned> D(N, S);
  D.fill(0u, S);
  mstage::pinned_vector<unsigned> Buf[2] = {mstage::pinned_vector<unsigned>(N),
                                            mstage::pinned_vector<unsigned>(N)};
  auto Add = mstage::kernel(
      [](auto &Acc, const auto &In) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Acc.size())
          Acc[I] += In[I];
      },
      blocks(), Block);
  mstage::device_vector<unsigned> Stage[2] = {
      mstage::device_vector<unsigned>(N, S),
      mstage::device_vector<unsigned>(N, S)};
  mstage::event Free[2];
  for (int C = 0; C < Chunks; ++C) {
    int K = C % 2;
    if (C >= 2)
      Free[K].synchronize(); // the upload of chunk C - 2 is done
    for (unsigned I = 0; I < N; ++I)
      Buf[K][I] = I + unsigned(C);
    Stage[K].upload(Buf[K], S);
    Free[K] = S.record();
    Add.on(S)(D, std::as_const(Stage[K]));
  }
  std::vector<unsigned> Got;
  D.download(Got, S);
  S.synchronize();
  bool OK = true;
  for (unsigned I = 0; I < N; ++I)
    OK &= Got[I] == Chunks * I + unsigned(Chunks * (Chunks - 1) / 2);
  Checks.report(OK, "pinned double buffer refilled after its upload's event");
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1 << 12;
  capturedPipeline();
  managedRoundTrip();
  pinnedDoubleBuffer();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
