//===- graphs.cpp - GPU suite: launches captured into a graph and replayed -===//
//
// mstage::capture(s, f) records what f enqueues on s; graph::launch replays
// it:
//  - three dependent launches (device_vector arguments, a staged factor, a
//    scalar argument that changes after the capture) replayed 10 times on s
//    give what the same launches run 10 times directly give, and the CPU
//    reference; the replays use the arguments of the capture;
//  - a device_vector allocated on the current stream and first used on s
//    inside the capture (s's wait for it is captured too);
//  - a capture of the current stream with device_vector fill() and
//    copy_from() among the launches, replayed with g.launch() and on another
//    stream, against the CPU reference;
//  - a launch with a std::vector& argument inside a capture throws an
//    mstage::error that says why; the capture is discarded and the stream
//    works afterwards, and can be captured again;
//  - a capture whose function throws is discarded: nothing it recorded runs,
//    and the exception goes on;
//  - the memory of a graph lives as long as the graph (docs/async.md, Graphs):
//    device_vector temporaries made inside the capture (the process's first
//    device allocation, so the memory pool is made by the capture), a
//    device_vector made before the capture and destroyed before the replays,
//    and a captured reduction, replayed after their scope ended, against a
//    host loop, with vectors allocated after the capture left intact; a
//    device_vector made or resized in the capture and alive at its end is an
//    mstage::error naming the capture;
//  - a capture forked onto a second stream by an event and joined back,
//    replayed, against a host loop.
//
//===----------------------------------------------------------------------===//
#include "SuiteMain.h"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

constexpr const char *Name = "graphs";
constexpr unsigned Block = 256;
unsigned N = 1 << 18; // MSTAGE_SUITE_QUICK=1: 1 << 12
constexpr int Replays = 10;
constexpr unsigned Factor = 5;

SuiteChecks Checks(Name);

std::string difference(const std::vector<unsigned> &Got,
                       const std::vector<unsigned> &Want,
                       const char *Which) {
  if (Got.size() != Want.size())
    return std::string(Which) + " has size " + std::to_string(Got.size()) +
           ", expected " + std::to_string(Want.size());
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I])
      return std::string(Which) + "[" + std::to_string(I) +
             "] = " + std::to_string(Got[I]) + ", expected " +
             std::to_string(Want[I]);
  return "";
}

std::vector<unsigned> initial(unsigned Seed) {
  std::vector<unsigned> V(N);
  for (unsigned I = 0; I < N; ++I)
    V[I] = I * 2246822519u + Seed;
  return V;
}

unsigned blocks() { return (N + Block - 1) / Block; }

// The three launches: X = X * stage(Factor) + Step; Y += X; X ^= Y >> 3.
auto launches() {
  return std::make_tuple(mstage::kernel(
                             [F = Factor](auto &X, unsigned Step) {
                               unsigned I = mstage::Thread::get().global.x;
                               if (I < X.size())
                                 X[I] = X[I] * mstage::stage(F) + Step;
                             },
                             blocks(), Block),
                         mstage::kernel(
                             [](const auto &X, auto &Y) {
                               unsigned I = mstage::Thread::get().global.x;
                               if (I < Y.size())
                                 Y[I] += X[I];
                             },
                             blocks(), Block),
                         mstage::kernel(
                             [](auto &X, const auto &Y) {
                               unsigned I = mstage::Thread::get().global.x;
                               if (I < X.size())
                                 X[I] ^= Y[I] >> 3;
                             },
                             blocks(), Block));
}

template <class L>
void enqueue(const L &Ks, mstage::stream_ref S,
             mstage::device_vector<unsigned> &X,
             mstage::device_vector<unsigned> &Y, unsigned Step) {
  std::get<0>(Ks).on(S)(X, Step);
  std::get<1>(Ks).on(S)(std::as_const(X), Y);
  std::get<2>(Ks).on(S)(X, std::as_const(Y));
}

void reference(std::vector<unsigned> &X, std::vector<unsigned> &Y,
               unsigned Step, int Times) {
  for (int R = 0; R < Times; ++R)
    for (size_t I = 0; I < X.size(); ++I) {
      X[I] = X[I] * Factor + Step;
      Y[I] += X[I];
      X[I] ^= Y[I] >> 3;
    }
}

void replayEqualsDirect() {
  auto L = launches();
  std::vector<unsigned> WantX = initial(1), WantY = initial(2);
  mstage::device_vector<unsigned> GX(WantX), GY(WantY), DX(WantX),
      DY(WantY);
  mstage::stream S;
  // S waits for their upload now; firstUseInsideCapture() covers the case
  // where that wait is made inside the capture.
  GX.use_on(S);
  GY.use_on(S);
  unsigned Step = 3;
  mstage::graph G =
      mstage::capture(S, [&] { enqueue(L, S, GX, GY, Step); });
  Step = 11; // the replays keep the captured 3
  // Nothing ran while capturing.
  S.synchronize();
  std::string D = difference(GX.download(), WantX, "x after the capture");
  for (int R = 0; R < Replays; ++R)
    G.launch(S);
  for (int R = 0; R < Replays; ++R)
    enqueue(L, S, DX, DY, 3);
  S.synchronize();
  reference(WantX, WantY, 3, Replays);
  std::vector<unsigned> GotX = GX.download(), GotY = GY.download();
  if (D.empty())
    D = difference(GotX, WantX, "replayed x");
  if (D.empty())
    D = difference(GotY, WantY, "replayed y");
  if (D.empty())
    D = difference(DX.download(), GotX, "direct x against replayed x");
  if (D.empty())
    D = difference(DY.download(), GotY, "direct y against replayed y");
  Checks.report(G.valid() && D.empty(),
         "3 captured launches (device_vectors, a staged value) replayed " +
             std::to_string(Replays) +
             " times equal the direct launches and the CPU reference" +
             (D.empty() ? std::string() : ": " + D));
}

// On the current stream: fill, a launch, copy_from, a launch.
void fillAndCopyInside() {
  mstage::device_vector<unsigned> A(N), B(N);
  std::vector<unsigned> Start = initial(3);
  mstage::device_vector<unsigned> C(Start);
  auto Add = mstage::kernel(
      [](auto &A, const auto &C) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < A.size())
          A[I] += C[I];
      },
      blocks(), Block);
  auto Twice = mstage::kernel(
      [](auto &B, auto &C) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < B.size()) {
          B[I] *= 2u;
          C[I] += B[I];
        }
      },
      blocks(), Block);
  mstage::stream_ref Current = mstage::current_stream();
  mstage::graph G = mstage::capture(Current, [&] {
    A.fill(9u);
    Add(A, std::as_const(C));
    B.copy_from(A);
    Twice(B, C);
  });
  G.launch();
  G.launch();
  mstage::stream Other;
  Other.wait(Current.record());
  G.launch(Other);
  Other.synchronize();
  std::vector<unsigned> WantA(N), WantB(N), WantC = Start;
  for (int R = 0; R < 3; ++R)
    for (unsigned I = 0; I < N; ++I) {
      WantA[I] = 9u + WantC[I];
      WantB[I] = WantA[I] * 2u;
      WantC[I] += WantB[I];
    }
  std::string D = difference(A.download(), WantA, "a");
  if (D.empty())
    D = difference(B.download(), WantB, "b");
  if (D.empty())
    D = difference(C.download(), WantC, "c");
  Checks.report(D.empty(), "fill() and copy_from() captured with launches on the "
                    "current stream, replayed there twice and once on "
                    "another stream" +
                        (D.empty() ? std::string() : ": " + D));
}

void hostVectorInside() {
  mstage::stream S;
  std::vector<unsigned> Host(N, 1);
  auto Inc = mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += 1;
      },
      blocks(), Block);
  std::string Message;
  bool Valid = false;
  try {
    mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(Host); });
    Valid = G.valid();
  } catch (const mstage::error &E) {
    Message = E.what();
  }
  // It says that the capture is the reason (the CPU back end: "while it is
  // captured into a graph"; a GPU may refuse the copy in the capture first).
  std::string Lower = Message;
  for (char &C : Lower)
    C = char(std::tolower((unsigned char)C));
  bool Clear = Message.rfind("mstage: ", 0) == 0 &&
               Lower.find("captur") != std::string::npos;
  // The stream works afterwards, and captures again.
  mstage::device_vector<unsigned> V(N, 4u);
  Inc.on(S)(V);
  mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V); });
  G.launch(S);
  S.synchronize();
  std::vector<unsigned> Want(N, 6u);
  std::string D = difference(V.download(), Want, "v");
  Checks.report(Clear && !Valid && D.empty(),
         "a std::vector& argument inside a capture: " +
             (Message.empty() ? std::string("no error") : "'" + Message + "'") +
             (D.empty() ? "; the stream works afterwards" : "; then " + D));
}

void throwingCapture() {
  mstage::stream S;
  std::vector<unsigned> Start = initial(4);
  mstage::device_vector<unsigned> V(Start);
  auto Inc = mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] += 1;
      },
      blocks(), Block);
  V.use_on(S);
  bool Caught = false;
  try {
    mstage::graph G = mstage::capture(S, [&] {
      Inc.on(S)(V);
      V.fill(0u, S);
      throw std::runtime_error("stop");
    });
  } catch (const std::runtime_error &E) {
    Caught = std::string(E.what()) == "stop";
  }
  S.synchronize();
  std::string D = difference(V.download(), Start, "v after the discarded "
                                                  "capture");
  mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V); });
  G.launch(S);
  G.launch(S);
  S.synchronize();
  for (unsigned &W : Start)
    W += 2;
  if (D.empty())
    D = difference(V.download(), Start, "v after 2 replays");
  Checks.report(Caught && D.empty(),
         "a capture whose function throws is discarded" +
             std::string(Caught ? "" : "; the exception was lost") +
             (D.empty() ? std::string() : "; " + D));
}

// A device_vector of the current stream, first used on s inside the
// capture: the capture records that s waits for its upload.
void firstUseInsideCapture() {
  std::vector<unsigned> Want = initial(5);
  mstage::device_vector<unsigned> V(Want);
  mstage::stream S;
  auto Inc = mstage::kernel(
      [](auto &V) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < V.size())
          V[I] = V[I] * 3u + 1u;
      },
      blocks(), Block);
  std::string Message;
  try {
    mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V); });
    G.launch(S);
    G.launch(S);
    S.synchronize();
  } catch (const mstage::error &E) {
    Message = E.what();
  }
  for (unsigned &W : Want)
    W = (W * 3u + 1u) * 3u + 1u;
  std::string D = Message.empty() ? difference(V.download(), Want, "v")
                                  : "'" + Message + "'";
  Checks.report(D.empty(), "a device_vector of the current stream first used on s "
                    "inside the capture, replayed twice" +
                        (D.empty() ? std::string() : ": " + D));
}

// Vectors made after a capture: they would get memory freed too early.
std::vector<mstage::device_vector<unsigned>> probes() {
  std::vector<mstage::device_vector<unsigned>> P;
  for (int I = 0; I < 8; ++I)
    P.emplace_back(N, 0xdeadu);
  return P;
}
std::string
probesChanged(const std::vector<mstage::device_vector<unsigned>> &P) {
  for (const auto &V : P)
    if (std::string D =
            difference(V.download(), std::vector<unsigned>(N, 0xdeadu),
                       "a vector made after the capture");
        !D.empty())
      return D;
  return "";
}

auto squareKernel() {
  return mstage::kernel(
      [](const auto &X, auto &T) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          T[I] = X[I] * X[I];
      },
      blocks(), Block);
}
auto addKernel() {
  return mstage::kernel(
      [](auto &Y, const auto &T) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Y.size())
          Y[I] += T[I] + 1u;
      },
      blocks(), Block);
}

// Run first: the capture makes the process's first pool allocation. X and Y
// are managed memory, which is not from the pool.
void temporariesInsideCapture() {
  auto Square = squareKernel();
  auto Add = addKernel();
  std::vector<unsigned> HostX = initial(6);
  mstage::managed_vector<unsigned> X(N), Y(N, 0u);
  for (unsigned I = 0; I < N; ++I)
    X[I] = HostX[I];
  std::string Message;
  std::string D;
  try {
    mstage::stream S;
    mstage::graph G = mstage::capture(S, [&] {
      mstage::device_vector<unsigned> T(N); // the current stream's
      Square.on(S)(X, T);
      Add.on(S)(Y, std::as_const(T));
      mstage::device_vector<unsigned> U(N, S);
      Square.on(S)(X, U);
      Add.on(S)(Y, std::as_const(U));
      mstage::device_vector<unsigned> Ones(N, 1u); // filled in the graph
      Add.on(S)(Y, std::as_const(Ones));
    });
    auto P = probes();
    for (int R = 0; R < Replays; ++R)
      G.launch(S);
    S.synchronize();
    D = probesChanged(P);
  } catch (const mstage::error &E) {
    Message = E.what();
  }
  std::vector<unsigned> Want(N, 0u);
  for (int R = 0; R < Replays; ++R)
    for (unsigned I = 0; I < N; ++I)
      Want[I] += 2u * (HostX[I] * HostX[I] + 1u) + 2u;
  if (D.empty() && Message.empty())
    D = difference(std::vector<unsigned>(Y.begin(), Y.end()), Want, "y");
  Checks.report(Message.empty() && D.empty(),
         "device_vector temporaries made inside a capture (the first "
         "allocation of the process), replayed " +
             std::to_string(Replays) + " times after their scope" +
             (Message.empty() ? "" : ": '" + Message + "'") +
             (D.empty() ? std::string() : ": " + D));
}

// A vector made before the capture and destroyed before the replays, and a
// captured reduction whose temporaries are gone: the graph keeps the memory.
void memoryOutlivesItsScope() {
  auto Add = addKernel();
  std::vector<unsigned> HostX = initial(7);
  mstage::stream S;
  auto X = std::make_unique<mstage::device_vector<unsigned>>(HostX);
  mstage::device_vector<unsigned> Y(N, 0u), Sum(1, 0u);
  X->use_on(S);
  Y.use_on(S);
  Sum.use_on(S);
  mstage::graph G = mstage::capture(S, [&] {
    Add.on(S)(Y, std::as_const(*X));
    mstage::sum.on(S)(*X, Sum);
  });
  X.reset();
  auto P = probes();
  G.launch(S);
  G.launch(S);
  S.synchronize();
  std::vector<unsigned> Want(N);
  unsigned WantSum = 0;
  for (unsigned I = 0; I < N; ++I) {
    Want[I] = 2u * (HostX[I] + 1u);
    WantSum += HostX[I];
  }
  std::string D = probesChanged(P);
  if (D.empty())
    D = difference(Y.download(), Want, "y");
  if (D.empty() && Sum.get(0) != WantSum)
    D = "sum " + std::to_string(Sum.get(0)) + ", expected " +
        std::to_string(WantSum);
  Checks.report(D.empty(), "a device_vector destroyed after the capture and a "
                    "captured reduction, replayed twice after their scope" +
                        (D.empty() ? std::string() : ": " + D));
}

// Made, or resized, in a capture and alive at its end: an error.
void keptPastTheCapture() {
  std::string Messages, Bad;
  for (int Resize = 0; Resize < 2; ++Resize) {
    mstage::stream S;
    mstage::device_vector<unsigned> Kept(Resize ? 4 : 0);
    std::string Message;
    try {
      mstage::graph G = mstage::capture(S, [&] {
        if (Resize)
          Kept.resize(N);
        else
          Kept = mstage::device_vector<unsigned>(N);
      });
    } catch (const mstage::error &E) {
      Message = E.what();
    }
    if (Message.rfind("mstage: capture: ", 0) != 0 ||
        Message.find("outlive it") == std::string::npos)
      Bad += std::string(Resize ? "resized" : "made") + ": '" + Message + "' ";
    Messages = Message;
  }
  // The process goes on: a capture works afterwards.
  auto Add = addKernel();
  mstage::stream S;
  mstage::device_vector<unsigned> X(N, 2u), Y(N, 0u);
  mstage::graph G = mstage::capture(S, [&] { Add.on(S)(Y, std::as_const(X)); });
  G.launch(S);
  S.synchronize(); // download() waits for Y's home stream, not for S
  std::string D = difference(Y.download(), std::vector<unsigned>(N, 3u), "y");
  Checks.report(Bad.empty() && D.empty(),
         "a device_vector made or resized in a capture and alive at its end: " +
             (Bad.empty() ? "'" + Messages + "'" : Bad) +
             (D.empty() ? std::string() : "; then " + D));
}

// Forked onto Side by an event recorded in the capture, joined back.
void forkJoin() {
  auto Add = addKernel();
  auto Square = squareKernel();
  mstage::stream S, Side;
  std::vector<unsigned> HostA = initial(8), HostB = initial(9);
  mstage::device_vector<unsigned> A(HostA), B(HostB), T(N);
  A.use_on(S);
  B.use_on(Side);
  T.use_on(S);
  mstage::graph G = mstage::capture(S, [&] {
    Square.on(S)(std::as_const(A), T); // T = A * A
    mstage::event Fork = S.record();
    Side.wait(Fork);
    Add.on(Side)(B, std::as_const(T)); // B += T + 1
    mstage::event Join = Side.record();
    S.wait(Join);
    Add.on(S)(A, std::as_const(B)); // A += B + 1
  });
  for (int R = 0; R < Replays; ++R)
    G.launch(S);
  S.synchronize();
  std::vector<unsigned> WantA = HostA, WantB = HostB;
  for (int R = 0; R < Replays; ++R)
    for (unsigned I = 0; I < N; ++I) {
      WantB[I] += WantA[I] * WantA[I] + 1u;
      WantA[I] += WantB[I] + 1u;
    }
  std::string D = difference(A.download(), WantA, "a");
  if (D.empty())
    D = difference(B.download(), WantB, "b");
  Checks.report(D.empty(), "a capture forked onto a second stream by an event and "
                    "joined back, replayed " +
                        std::to_string(Replays) + " times" +
                        (D.empty() ? std::string() : ": " + D));
}

int run() {
  if (skipWithoutGpu(Name))
    return 0;
  if (const char *Quick = std::getenv("MSTAGE_SUITE_QUICK"); Quick && *Quick)
    N = 1 << 12;
  temporariesInsideCapture();
  replayEqualsDirect();
  firstUseInsideCapture();
  fillAndCopyInside();
  hostVectorInside();
  throwingCapture();
  memoryOutlivesItsScope();
  keptPastTheCapture();
  forkJoin();
  return Checks.failed() ? 1 : 0;
}

} // namespace

int main() { return runSuiteProgram(Name, run); }
