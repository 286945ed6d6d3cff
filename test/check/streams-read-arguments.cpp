// MSTAGE_CHECK=streams counts a non-const vector argument as written only
// when the kernel may write through it (a store or an atomic, found in its
// IR, as for captures): two kernels that only read the same vector on two
// streams are not a race, whether or not the caller wrote std::as_const. A
// kernel that writes it, or the same vector passed twice and written through
// one of the two, still is.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

constexpr int N = 8;

static void mark(const char *Case) { std::fprintf(stderr, "case %s\n", Case); }

int main() {
  auto Copy = mstage::kernel(
      [](auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().index.x;
        Out[I] = In[I];
      },
      1, N);
  auto Both = mstage::kernel(
      [](auto &In, auto &Out) {
        unsigned I = mstage::Thread::get().index.x;
        if (I == 0)
          Out[N - 1] = In[0] + 1;
      },
      1, N);
  mstage::device_vector<int> A(N, 1), B(N, 0), C(N, 0);
  mstage::synchronize();
  {
    mark("a non-const argument only read on two streams");
    // CHECK-LABEL: case a non-const argument only read on two streams
    // CHECK-NOT: stream check
    mstage::stream S1, S2;
    Copy.on(S1)(A, B);
    Copy.on(S2)(A, C);
    mstage::synchronize();
  }
  {
    mark("the output of one, the input of the other");
    // CHECK-LABEL: case the output of one, the input of the other
    mstage::stream S1, S2;
    Copy.on(S1)(A, B);
    Copy.on(S2)(B, C);
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-read-arguments.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-read-arguments.cpp:{{[0-9]+}}, written by kernel '{{[^']+}}' at streams-read-arguments.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    mstage::synchronize();
  }
  {
    mark("the same vector twice, written through one");
    // CHECK-LABEL: case the same vector twice, written through one
    mstage::stream S1, S2;
    Both.on(S1)(A, A);
    Copy.on(S2)(A, C);
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-read-arguments.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-read-arguments.cpp:{{[0-9]+}}, written by kernel '{{[^']+}}' at streams-read-arguments.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    mstage::synchronize();
  }
  std::fprintf(stderr, "done\n");
  // CHECK-LABEL: done
}
