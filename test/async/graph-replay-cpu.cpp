// On the CPU back end a graph is the list of what its capture recorded:
// nothing runs while capturing, each replay runs the recorded launches and
// copies again, in order, with the arguments they had when captured, and a
// graph replayed inside another capture is recorded into that one.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=stage %t | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  mstage::stream S;
  mstage::device_vector<int> V(4, 0), Copy(4, -1);
  auto Inc = mstage::kernel(
      [](auto &V, int Add) {
        V[mstage::Thread::get().index.x] += mstage::stage(Add);
      },
      1, 4);
  int Add = 1;
  mstage::graph G = mstage::capture(S, [&] {
    Inc.on(S)(V, Add);
    Copy.copy_from(V, S);
  });
  Add = 100; // the replays keep 1
  std::printf("captured: v %d copy %d\n", V.get(3), Copy.get(3));
  // CHECK: captured: v 0 copy -1
  G.launch(S);
  std::printf("1 replay: v %d copy %d\n", V.get(3), Copy.get(3));
  // CHECK: 1 replay: v 1 copy 1
  G.launch(S);
  G.launch(S);
  std::printf("3 replays: v %d copy %d\n", V.get(3), Copy.get(3));
  // CHECK: 3 replays: v 3 copy 3
  G.launch(); // on the current stream
  std::printf("4 replays: v %d copy %d\n", V.get(3), Copy.get(3));
  // CHECK: 4 replays: v 4 copy 4

  mstage::graph Twice = mstage::capture(S, [&] {
    G.launch(S);
    G.launch(S);
  });
  std::printf("captured the replays: v %d\n", V.get(3));
  // CHECK: captured the replays: v 4
  Twice.launch(S);
  std::printf("replayed the replays: v %d copy %d\n", V.get(3), Copy.get(3));
  // CHECK: replayed the replays: v 6 copy 6
}
