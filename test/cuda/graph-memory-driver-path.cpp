// The GPU path of the graph memory rule, against a fake libcuda.so.1 (device
// memory is host memory, launches do nothing; cuMemPoolCreate fails inside a
// capture, as the driver's does):
//  - a device_vector made inside a capture as the process's first device
//    allocation: the pool is made before the capture, so it works;
//  - one kept past the capture is an mstage::error, and its destructor does
//    not free it (the graph owned it);
//  - one made before the capture, used in it and destroyed before the graph:
//    freed with the graph, no error;
//  - copy_from between overlapping ranges (through a temporary) is memmove.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory %t 2>&1 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static std::string attempt(void (*F)()) {
  try {
    F();
  } catch (const mstage::error &E) {
    return E.what();
  }
  return "ok";
}

int main() {
  std::printf("first allocation in a capture: %s\n", attempt([] {
                mstage::stream S;
                mstage::graph G = mstage::capture(S, [&] {
                  mstage::device_vector<int> T(1000);
                  T.fill(1);
                  mstage::device_vector<int> U(1000, S);
                  U.copy_from(T);
                });
                G.launch(S);
                S.synchronize();
              }).c_str());
  // CHECK: first allocation in a capture: ok
  std::printf("kept past the capture: %s\n", attempt([] {
                mstage::stream S;
                mstage::device_vector<int> Kept;
                mstage::graph G = mstage::capture(
                    S, [&] { Kept = mstage::device_vector<int>(64); });
              }).c_str());
  // CHECK: kept past the capture: mstage: capture: 1 allocation made inside the capture
  std::printf("destroyed before the graph: %s\n", attempt([] {
                mstage::stream S;
                auto X = std::make_unique<mstage::device_vector<int>>(64, 3);
                mstage::device_vector<int> Y(64, 0);
                mstage::graph G =
                    mstage::capture(S, [&] { Y.copy_from(*X, S); });
                X.reset();
                G.launch(S);
                S.synchronize();
              }).c_str());
  // CHECK: destroyed before the graph: ok
  std::vector<int> Host(100), Want;
  for (int I = 0; I < 100; ++I)
    Host[I] = I;
  Want = Host;
  std::memmove(Want.data() + 1, Want.data(), 90 * sizeof(int));
  mstage::device_vector<int> V(Host);
  V.copy_from(V, 0, 90, 1);
  std::printf("overlapping copy_from: %s\n",
              V.download() == Want ? "memmove" : "DIFFERENT");
  // CHECK: overlapping copy_from: memmove
  mstage::synchronize();
  std::printf("done\n");
  // CHECK: done
}
