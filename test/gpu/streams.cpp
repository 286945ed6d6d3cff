//===- streams.cpp - GPU suite: streams, events and kernel futures ---------===//
//
// Launches enqueue on a stream and return; the stream keeps them in order:
//  - 100 dependent launches (x = x * 2 + 1) on one mstage::stream;
//  - two streams on separate arrays at once, joined by s2.wait(s1.record())
//    before a kernel on s2 reads both;
//  - events: record, synchronize, query, elapsed_ms >= 0 around work;
//  - mstage::synchronize() waits for a download enqueued on another stream;
//  - native handles are CUDA objects on a GPU (null on the CPU back end);
//  - k.on(s) launches on s, k on the current stream;
//  - async() futures on one stream, each launch reading the previous one's
//    output, complete in launch order; wait() rethrows a launch that could
//    not start (an empty grid), which async() itself does not throw;
//  - a device_vector allocated on the current stream, written on s1, read on
//    s2 after an event and destroyed while s2 may still run: its memory is
//    not reused (by a fill of junk on the current stream) before s2 is done.
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

constexpr const char *Name = "streams";
constexpr unsigned Block = 256;
unsigned N = 1 << 20; // MSTAGE_SUITE_QUICK=1: 1 << 12

SuiteChecks Checks(Name);

// "" when Got == Want, else the first difference.
std::string difference(const std::vector<unsigned> &Got,
                       const std::vector<unsigned> &Want) {
  if (Got.size() != Want.size())
    return "size " + std::to_string(Got.size()) + ", expected " +
           std::to_string(Want.size());
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I])
      return "[" + std::to_string(I) + "] = " + std::to_string(Got[I]) +
             ", expected " + std::to_string(Want[I]);
  return "";
}

std::vector<unsigned> initial(unsigned Seed) {
  std::vector<unsigned> V(N);
  for (unsigned I = 0; I < N; ++I)
    V[I] = I * 2654435761u + Seed;
  return V;
}

unsigned blocks() { return (N + Block - 1) / Block; }

auto stepKernel() {
  return mstage::kernel(
      [](auto &X) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          X[I] = X[I] * 2u + 1u;
      },
      blocks(), Block);
}

unsigned step(unsigned X) { return X * 2u + 1u; }

auto addKernel() {
  return mstage::kernel(
      [](auto &X, unsigned Add) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          X[I] += Add;
      },
      blocks(), Block);
}

// Out[i] = A[i] * 3 + B[i].
auto combineKernel() {
  return mstage::kernel(
      [](const auto &A, const auto &B, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = A[I] * 3u + B[I];
      },
      blocks(), Block);
}

void orderOnOneStream() {
  std::vector<unsigned> Want = initial(1);
  mstage::device_vector<unsigned> X(Want);
  mstage::stream S;
  auto Step = stepKernel();
  for (int R = 0; R < 100; ++R)
    Step.on(S)(X);
  S.synchronize();
  for (unsigned &V : Want)
    for (int R = 0; R < 100; ++R)
      V = step(V);
  std::string D = difference(X.download(), Want);
  Checks.report(D.empty(), "100 dependent launches on one stream" +
                        (D.empty() ? std::string() : ": " + D));
}

void twoStreamsJoined() {
  std::vector<unsigned> WantA = initial(2), WantB = initial(3);
  mstage::device_vector<unsigned> A(WantA), B(WantB), Out(N);
  mstage::stream S1, S2;
  auto Step = stepKernel();
  auto Add = addKernel();
  for (int R = 0; R < 50; ++R) {
    Step.on(S1)(A);
    Add.on(S2)(B, unsigned(R));
  }
  S2.wait(S1.record());
  combineKernel().on(S2)(std::as_const(A), std::as_const(B), Out);
  S2.synchronize();
  std::vector<unsigned> Want(N);
  for (unsigned I = 0; I < N; ++I) {
    for (int R = 0; R < 50; ++R) {
      WantA[I] = step(WantA[I]);
      WantB[I] += unsigned(R);
    }
    Want[I] = WantA[I] * 3u + WantB[I];
  }
  std::string D = difference(Out.download(), Want);
  Checks.report(D.empty(), "two streams at once, joined by s2.wait(s1.record())" +
                        (D.empty() ? std::string() : ": " + D));
}

void events() {
  std::vector<unsigned> Want = initial(4);
  mstage::device_vector<unsigned> X(Want);
  mstage::stream S;
  auto Step = stepKernel();
  mstage::event Start = S.record();
  for (int R = 0; R < 20; ++R)
    Step.on(S)(X);
  mstage::event End = S.record();
  End.synchronize();
  bool Done = End.query() && Start.query();
  float Ms = mstage::elapsed_ms(Start, End);
  for (unsigned &V : Want)
    for (int R = 0; R < 20; ++R)
      V = step(V);
  // The event's synchronize() covers the launches: read without waiting
  // for S again (download() waits only for the current stream).
  std::string D = difference(X.download(), Want);
  bool Handles = onCpu() || End.native_handle() != nullptr;
  Checks.report(D.empty() && Done && Ms >= 0 && Handles,
         "events: synchronize, query " + std::string(Done ? "true" : "false") +
             ", elapsed_ms " + std::to_string(Ms) +
             (Handles ? "" : ", null native handle") +
             (D.empty() ? std::string() : ", " + D));
}

void synchronizeAll() {
  std::vector<unsigned> Want = initial(5);
  mstage::device_vector<unsigned> X(Want);
  mstage::pinned_vector<unsigned> Host(N, 0);
  mstage::stream S;
  auto Step = stepKernel();
  for (int R = 0; R < 10; ++R)
    Step.on(S)(X);
  X.download(Host, S); // enqueued on S, not waited for
  mstage::synchronize();
  for (unsigned &V : Want)
    for (int R = 0; R < 10; ++R)
      V = step(V);
  std::string D =
      difference(std::vector<unsigned>(Host.begin(), Host.end()), Want);
  Checks.report(D.empty(), "mstage::synchronize() waits for another stream's "
                    "download" +
                        (D.empty() ? std::string() : ": " + D));
}

void handlesAndOn() {
  mstage::stream S;
  mstage::stream_ref Current = mstage::current_stream();
  auto Step = stepKernel();
  bool OK = Step.stream() == Current && Step.on(S).stream() == S &&
            Step.on(S).stream() != Current;
  std::string What = "k.on(s) launches on s, k on the current stream";
  if (!onCpu()) {
    OK = OK && S.native_handle() != nullptr &&
         Current.native_handle() != nullptr &&
         S.native_handle() != Current.native_handle();
    What += "; native handles are distinct CUDA streams";
  } else {
    What += "; native handles on the CPU back end: " +
            std::string(S.native_handle() ? "non-null" : "null");
  }
  Checks.report(OK, What);
}

// V[j + 1][i] = V[j][i] * 3 + j, one launch each, as futures on S.
void futuresInOrder(bool OnCurrent) {
  constexpr unsigned Steps = 12;
  std::vector<unsigned> First = initial(6);
  std::vector<mstage::device_vector<unsigned>> V;
  V.emplace_back(First);
  for (unsigned J = 0; J < Steps; ++J)
    V.emplace_back(N);
  mstage::stream S;
  auto Next = mstage::kernel(
      [](const auto &Prev, auto &Out, unsigned J) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Out.size())
          Out[I] = Prev[I] * 3u + J;
      },
      blocks(), Block);
  auto K = OnCurrent ? Next : Next.on(S);
  std::vector<mstage::kernel_future> Futures;
  for (unsigned J = 0; J < Steps; ++J)
    Futures.push_back(
        mstage::async(mstage::launch::kernel, K, std::as_const(V[J]),
                      V[J + 1], J));
  Futures.back().wait();
  bool AllReady = true;
  for (const mstage::kernel_future &F : Futures)
    AllReady = AllReady && F.valid() && F.ready();
  std::vector<unsigned> Want = First;
  std::string D;
  for (unsigned J = 0; J < Steps && D.empty(); ++J) {
    for (unsigned &W : Want)
      W = W * 3u + J;
    D = difference(V[J + 1].download(), Want);
    if (!D.empty())
      D = "step " + std::to_string(J) + ": " + D;
  }
  Futures.front().get();
  bool Consumed = !Futures.front().valid() && Futures.back().valid();
  Checks.report(D.empty() && AllReady && Consumed,
         std::to_string(Steps) + " dependent async() launches on the " +
             (OnCurrent ? "current stream" : "stream of k.on(s)") +
             " complete in order" + (AllReady ? "" : "; an earlier future "
                                                     "is not ready after the "
                                                     "last one") +
             (Consumed ? "" : "; get() did not consume the future") +
             (D.empty() ? std::string() : "; " + D));
}

void futureRethrows() {
  mstage::device_vector<unsigned> X(N, 7u);
  auto Empty = mstage::kernel(
      [](auto &X) { X[mstage::Thread::get().global.x] = 1; }, mstage::dim3(0),
      Block);
  mstage::kernel_future F;
  std::string AtAsync, AtWait;
  try {
    F = mstage::async(mstage::launch::kernel, Empty, X);
  } catch (const mstage::error &E) {
    AtAsync = E.what();
  }
  bool Ready = AtAsync.empty() && F.valid() && F.ready();
  try {
    F.wait();
  } catch (const mstage::error &E) {
    AtWait = E.what();
  }
  bool Named = AtWait.find("mstage: kernel '") != std::string::npos &&
               AtWait.find("futureRethrows") != std::string::npos &&
               AtWait.find("empty launch configuration") != std::string::npos;
  bool Untouched = X.get(N - 1) == 7u;
  Checks.report(AtAsync.empty() && Ready && Named && Untouched,
         "a launch with an empty grid: " +
             (AtAsync.empty() ? "async() returned, wait() threw '" + AtWait +
                                    "'"
                              : "async() threw '" + AtAsync + "'") +
             (Untouched ? "" : "; the kernel ran"));
}

void vectorAcrossStreams() {
  mstage::stream S1, S2;
  mstage::device_vector<unsigned> Result(N, 0u);
  auto Write = mstage::kernel(
      [](auto &T, unsigned Seed) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < T.size())
          T[I] = I * 7u + Seed;
      },
      blocks(), Block);
  // Slow enough that s2 is likely still running when the array goes.
  auto Read = mstage::kernel(
      [](const auto &T, auto &Out) {
        unsigned I = mstage::Thread::get().global.x;
        if (I >= Out.size())
          return;
        unsigned V = T[I];
        for (int R = 0; R < 64; ++R)
          V = V * 2u + 1u;
        Out[I] += V;
      },
      blocks(), Block);
  constexpr unsigned Rounds = 10;
  for (unsigned Seed = 0; Seed < Rounds; ++Seed) {
    {
      mstage::device_vector<unsigned> T(N); // on the current stream
      Write.on(S1)(T, Seed);
      S2.wait(S1.record());
      Read.on(S2)(std::as_const(T), Result);
    } // freed in stream order, after s1 and s2
    // Likely to reuse T's memory from the pool; must not clobber it early.
    mstage::device_vector<unsigned> Junk(N, 0xdeadbeefu);
  }
  S2.synchronize();
  std::vector<unsigned> Want(N, 0);
  for (unsigned Seed = 0; Seed < Rounds; ++Seed)
    for (unsigned I = 0; I < N; ++I) {
      unsigned V = I * 7u + Seed;
      for (int R = 0; R < 64; ++R)
        V = V * 2u + 1u;
      Want[I] += V;
    }
  std::string D = difference(Result.download(), Want);
  Checks.report(D.empty(), "a device_vector of the current stream written on s1, "
                    "read on s2 and destroyed while s2 runs" +
                        (D.empty() ? std::string() : ": " + D));
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1 << 12;
  orderOnOneStream();
  twoStreamsJoined();
  events();
  synchronizeAll();
  handlesAndOn();
  futuresInOrder(/*OnCurrent=*/false);
  futuresInOrder(/*OnCurrent=*/true);
  futureRethrows();
  vectorAcrossStreams();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
