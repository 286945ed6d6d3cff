// A reduction of an empty view into device memory, captured into a graph,
// writes its init (sum: T{}, count_if: 0, any_of: false, all_of: true) at
// every replay, long after the capturing call has returned. The value used
// to be copied from a stack variable of that call, which each replay read
// again: garbage once the stack was reused (here scribbled over on purpose
// between the replays). On the CPU back end, where a replay runs the
// recorded copies and launches.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS captured-empty-reduction replays=8

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <cstring>
#include <functional>

// Overwrites the stack below the caller, as any later call would.
__attribute__((noinline)) void scribble(unsigned char Byte) {
  volatile unsigned char Junk[1 << 16];
  for (unsigned I = 0; I < sizeof(Junk); ++I)
    Junk[I] = Byte;
}

struct Out {
  mstage::device_vector<int> Reduce{1}, Count{1};
  mstage::device_vector<double> Sum{1};
  mstage::device_vector<char> Any{1}, All{1};
};

// The capture, in its own frame, with init a local of it.
__attribute__((noinline)) mstage::graph captureEmpty(mstage::stream &S,
                                                     Out &O) {
  static mstage::device_vector<int> EmptyI(0);
  static mstage::device_vector<double> EmptyD(0);
  int Init = 42;
  return mstage::capture(S, [&] {
    mstage::reduce.on(S)(EmptyI, Init, std::plus<>(), O.Reduce);
    mstage::sum.on(S)(EmptyD, O.Sum);
    mstage::count_if.on(S)(EmptyI, [](int X) { return X > 0; }, O.Count);
    mstage::any_of.on(S)(EmptyI, [](int X) { return X > 0; }, O.Any);
    mstage::all_of.on(S)(EmptyI, [](int X) { return X > 0; }, O.All);
  });
}

int main() {
  mstage::stream S;
  Out O;
  mstage::graph G = captureEmpty(S, O);
  int Failures = 0, Replays = 0;
  for (unsigned char Byte : {0x5a, 0xff, 0x01, 0x00, 0x80, 0x7f, 0x33, 0xc3}) {
    // Something else in every output, then the replay, after the stack has
    // been used again.
    O.Reduce.upload(std::vector<int>{-1});
    O.Count.upload(std::vector<int>{-1});
    O.Sum.upload(std::vector<double>{-1.0});
    O.Any.upload(std::vector<char>{7});
    O.All.upload(std::vector<char>{7});
    mstage::synchronize();
    scribble(Byte);
    G.launch(S);
    S.synchronize();
    ++Replays;
    int R = O.Reduce.download()[0], C = O.Count.download()[0];
    double Sum = O.Sum.download()[0];
    char A = O.Any.download()[0], L = O.All.download()[0];
    if (R != 42 || C != 0 || Sum != 0.0 || A != 0 || L != 1) {
      ++Failures;
      std::printf("FAIL replay %d: reduce %d (want 42), sum %g (want 0), "
                  "count_if %d (want 0), any_of %d (want 0), all_of %d "
                  "(want 1)\n",
                  Replays, R, Sum, C, int(A), int(L));
    }
  }
  if (!Failures)
    std::printf("PASS captured-empty-reduction replays=%d\n", Replays);
  return Failures != 0;
}
