// The memory of a graph lives as long as the graph (docs/async.md, Graphs): a
// device_vector made inside a capture (on the current stream while another
// stream is captured, or on the captured one), a reduction's temporaries, and
// a device_vector made before the capture and destroyed after it are all
// still there when the graph is replayed after their scope ended. The replays
// are compared with a host loop, and vectors allocated after the capture
// (which would get freed memory) must keep their values through the replays.
// A device_vector made or resized inside a capture and still alive at its end
// is an mstage::error naming the capture.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s
// In PTX-only mode nothing runs, but the memory rule is the same:
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t | FileCheck %s --check-prefix=PTX
// PTX: temporaries replayed: {{.*}}, later vectors intact
// PTX: destroyed before the replays: {{.*}}, later vectors intact
// PTX: destroyed inside the capture: {{.*}}, later vectors intact
// PTX: captured reduction: {{.*}}, later vectors intact
// PTX: made in the capture, kept: mstage: capture: 1 allocation made inside the capture
// PTX: resized in the capture, kept: mstage: capture: 1 allocation made inside the capture
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

constexpr unsigned N = 1000;
constexpr unsigned Block = 128;
constexpr unsigned Grid = (N + Block - 1) / Block;

// Vectors made after a capture: they get memory that was freed, if any was.
static std::vector<mstage::device_vector<int>> probes() {
  std::vector<mstage::device_vector<int>> P;
  for (int I = 0; I < 8; ++I)
    P.emplace_back(N, -7);
  return P;
}
static bool intact(const std::vector<mstage::device_vector<int>> &P) {
  for (const auto &V : P)
    for (int X : V.download())
      if (X != -7)
        return false;
  return true;
}

static const char *same(const std::vector<int> &Got,
                        const std::vector<int> &Want) {
  return Got == Want ? "same" : "DIFFERENT";
}

int main() {
  auto Square = mstage::kernel(
      [](const auto &X, auto &T) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < X.size())
          T[I] = X[I] * X[I];
      },
      Grid, Block);
  auto AddTo = mstage::kernel(
      [](auto &Y, const auto &T) {
        unsigned I = mstage::Thread::get().global.x;
        if (I < Y.size())
          Y[I] += T[I] + 1;
      },
      Grid, Block);
  std::vector<int> HostX(N);
  for (unsigned I = 0; I < N; ++I)
    HostX[I] = int(I % 37) - 11;

  // A temporary made on the current stream while S is captured, one made on
  // S, and one filled without a stream: each replay computes into them.
  {
    mstage::stream S;
    mstage::device_vector<int> X(HostX), Y(N, 0);
    mstage::graph G = mstage::capture(S, [&] {
      mstage::device_vector<int> T(N); // the current stream's
      Square.on(S)(std::as_const(X), T);
      AddTo.on(S)(Y, std::as_const(T));
      mstage::device_vector<int> U(N, S);
      Square.on(S)(std::as_const(X), U);
      AddTo.on(S)(Y, std::as_const(U));
      mstage::device_vector<int> Ones(N, 1); // filled in the graph
      AddTo.on(S)(Y, std::as_const(Ones));
    });
    std::printf("after the capture: y %s\n",
                same(Y.download(), std::vector<int>(N, 0)));
    // CHECK: after the capture: y same
    auto P = probes();
    for (int R = 0; R < 3; ++R)
      G.launch(S);
    S.synchronize();
    std::vector<int> Want(N, 0);
    for (int R = 0; R < 3; ++R)
      for (unsigned I = 0; I < N; ++I)
        Want[I] += 2 * (HostX[I] * HostX[I] + 1) + 2;
    std::printf("temporaries replayed: y %s, later vectors %s\n",
                same(Y.download(), Want), intact(P) ? "intact" : "OVERWRITTEN");
    // CHECK: temporaries replayed: y same, later vectors intact
  }

  // A vector made before the capture and destroyed after it, before the
  // replays: the graph keeps its memory.
  {
    mstage::stream S;
    auto X = std::make_unique<mstage::device_vector<int>>(HostX);
    mstage::device_vector<int> Y(N, 0);
    mstage::graph G = mstage::capture(S, [&] {
      AddTo.on(S)(Y, std::as_const(*X));
    });
    X.reset();
    auto P = probes();
    G.launch(S);
    G.launch(S);
    S.synchronize();
    std::vector<int> Want(N);
    for (unsigned I = 0; I < N; ++I)
      Want[I] = 2 * (HostX[I] + 1);
    std::printf("destroyed before the replays: y %s, later vectors %s\n",
                same(Y.download(), Want), intact(P) ? "intact" : "OVERWRITTEN");
    // CHECK: destroyed before the replays: y same, later vectors intact
  }

  // A vector made before the capture and destroyed inside it.
  {
    mstage::stream S;
    auto X = std::make_unique<mstage::device_vector<int>>(HostX);
    mstage::device_vector<int> Y(N, 0);
    mstage::graph G = mstage::capture(S, [&] {
      AddTo.on(S)(Y, std::as_const(*X));
      X.reset();
    });
    auto P = probes();
    G.launch(S);
    S.synchronize();
    std::vector<int> Want(N);
    for (unsigned I = 0; I < N; ++I)
      Want[I] = HostX[I] + 1;
    std::printf("destroyed inside the capture: y %s, later vectors %s\n",
                same(Y.download(), Want), intact(P) ? "intact" : "OVERWRITTEN");
    // CHECK: destroyed inside the capture: y same, later vectors intact
  }

  // A reduction inside a capture (its partials are temporaries), over more
  // elements than one block reduces, replayed after the capture.
  {
    mstage::stream S;
    std::vector<int> Big(100000);
    for (size_t I = 0; I < Big.size(); ++I)
      Big[I] = int(I % 101) - 50;
    mstage::device_vector<int> In(Big), Out(1, 0);
    mstage::graph G = mstage::capture(
        S, [&] { mstage::reduce.on(S)(In, 5, std::plus<>(), Out); });
    auto P = probes();
    G.launch(S);
    G.launch(S);
    long Want = 5;
    for (int V : Big)
      Want += V;
    std::printf("captured reduction: %s, later vectors %s\n",
                long(Out.get(0)) == Want ? "same" : "DIFFERENT",
                intact(P) ? "intact" : "OVERWRITTEN");
    // CHECK: captured reduction: same, later vectors intact
  }

  // Made, or resized, in the capture and alive at its end: an error.
  for (int Resize = 0; Resize < 2; ++Resize) {
    mstage::stream S;
    mstage::device_vector<int> Kept(Resize ? 4 : 0);
    std::string Message = "no error";
    try {
      mstage::graph G = mstage::capture(S, [&] {
        if (Resize)
          Kept.resize(N);
        else
          Kept = mstage::device_vector<int>(N);
      });
    } catch (const mstage::error &E) {
      Message = E.what();
    }
    std::printf("%s in the capture, kept: %s\n", Resize ? "resized" : "made",
                Message.c_str());
    // And the stream works afterwards.
    mstage::device_vector<int> X(HostX), Y(N, 0);
    mstage::graph G =
        mstage::capture(S, [&] { AddTo.on(S)(Y, std::as_const(X)); });
    G.launch(S);
    std::vector<int> Want(N);
    for (unsigned I = 0; I < N; ++I)
      Want[I] = HostX[I] + 1;
    std::printf("then: %s\n", same(Y.download(), Want));
  }
  // CHECK: made in the capture, kept: mstage: capture: 1 allocation made inside the capture (a device_vector made or resized in the captured function) outlive it; memory made in a capture belongs to the graph
  // CHECK-NEXT: then: same
  // CHECK: resized in the capture, kept: mstage: capture: 1 allocation made inside the capture
  // CHECK-NEXT: then: same
}
