// graph::launch on an empty graph (made by default, or moved from) throws an
// mstage::error that says so, on any back end.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <utility>

static void launch(const mstage::graph &G, const char *What) {
  try {
    G.launch();
    std::printf("%s: launched\n", What);
  } catch (const mstage::error &E) {
    std::printf("%s: %s\n", What, E.what());
  }
}

int main() {
  mstage::graph Empty;
  std::printf("valid %d\n", Empty.valid());
  // CHECK: valid 0
  launch(Empty, "default");
  // CHECK: default: mstage: graph::launch on an empty graph
  mstage::stream S;
  mstage::device_vector<int> V(8, 0);
  auto Inc = mstage::kernel(
      [](auto &V) { V[mstage::Thread::get().index.x] += 1; }, 1, 8);
  mstage::graph G = mstage::capture(S, [&] { Inc.on(S)(V); });
  mstage::graph Moved = std::move(G);
  launch(G, "moved from");
  // CHECK: moved from: mstage: graph::launch on an empty graph
  launch(Moved, "moved to");
  // CHECK: moved to: launched
}
