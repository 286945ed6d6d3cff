// A stream's destructor does not throw: it waits for the stream's work, and
// a stream destroyed while it is captured says so on stderr and the program
// goes on. A moved-from stream is destroyed without a word.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t 2>&1 | FileCheck %s
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <type_traits>
#include <utility>

static_assert(std::is_nothrow_destructible_v<mstage::stream>);
static_assert(std::is_nothrow_destructible_v<mstage::event>);
static_assert(std::is_nothrow_destructible_v<mstage::graph>);

int main() {
  mstage::device_vector<int> V(64, 0);
  auto Inc = mstage::kernel(
      [](auto &V) { V[mstage::Thread::get().index.x] += 1; }, 1, 64);
  {
    mstage::stream S;
    for (int I = 0; I < 5; ++I)
      Inc.on(S)(V);
    mstage::stream Moved = std::move(S);
    Inc.on(Moved)(V);
  }
  std::fprintf(stderr, "work waited for\n");
  // CHECK-NOT: destroyed
  // CHECK: work waited for
  {
    mstage::stream S;
    if (mstage_rt_capture_begin(S.get()) != 0)
      std::fprintf(stderr, "%s\n", mstage_rt_last_error());
    Inc.on(S)(V);
  }
  // CHECK-NEXT: mstage: stream {{[0-9]+}} is destroyed while it is captured into a graph
  std::fprintf(stderr, "the program goes on\n");
  // CHECK-NEXT: the program goes on
  Inc(V);
  mstage::synchronize();
  std::fprintf(stderr, "done\n");
  // CHECK-NEXT: done
}
