// MSTAGE_CHECK=streams reports each use of a vector that no event or
// synchronization orders after a conflicting use on another stream, with
// both operations' file:line, once per hazard; the CPU back end runs
// everything in order, so only the checker can see these races. The same
// races are found on the GPU path (a fake driver) and in PTX-only mode, and
// nothing is said without MSTAGE_CHECK.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: stream check
//
// MSTAGE_STREAM_ORDER=auto makes each of those uses wait instead, which
// MSTAGE_TRACE shows.
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STREAM_ORDER=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_STREAM_ORDER=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: MSTAGE_STREAM_ORDER=auto
// AUTO-NOT: stream check:

#include <mstage.hpp>

#include <cstdio>
#include <utility>
#include <vector>

constexpr int N = 8;

static void mark(const char *Case) { std::fprintf(stderr, "case %s\n", Case); }

int main() {
  auto Inc = [](auto V) { V[mstage::Thread::get().index.x] += 1; };
  auto Copy = [](auto In, auto Out) {
    unsigned I = mstage::Thread::get().index.x;
    Out[I] = In[I];
  };
  std::vector<int> Host(N, 1);
  mstage::synchronize(); // reads the setting, which is announced
  // CHECK: MSTAGE_CHECK=streams
  {
    // A copy without a stream goes to the thread's stream, not to S.
    mark("upload then launch on a stream");
    // CHECK-LABEL: case upload then launch on a stream
    mstage::stream S;
    mstage::device_vector<int> A(N, 0);
    mstage::kernel(Inc, 1, N).on(S)(A);
    A.upload(Host);
    mstage::kernel(Inc, 1, N).on(S)(A);
    // CHECK-NEXT: mstage: stream check: upload at streams-races.cpp:[[#@LINE-2]] on stream [[HOME:[0-9]+]] writes the device_vector made at streams-races.cpp:[[#@LINE-4]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]] on stream [[S:[0-9]+]] with no event or synchronization between them
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-2]] on stream [[S]] writes the device_vector made at streams-races.cpp:[[#@LINE-5]], written by upload at streams-races.cpp:[[#@LINE-3]] on stream [[HOME]] with no event or synchronization between them
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-5]]
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after upload at streams-races.cpp:[[#@LINE-5]]
    S.synchronize();
  }
  {
    mark("two streams write one vector");
    // CHECK-LABEL: case two streams write one vector
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    mstage::kernel(Inc, 1, N).on(S1)(A);
    mstage::kernel(Inc, 1, N).on(S2)(A);
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-1]] on stream {{[0-9]+}} writes the device_vector made at streams-races.cpp:[[#@LINE-4]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]]
    mstage::synchronize();
  }
  {
    mark("download on another stream");
    // CHECK-LABEL: case download on another stream
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    std::vector<int> Out;
    mstage::kernel(Inc, 1, N).on(S1)(A);
    A.download(Out, S2);
    // CHECK-NEXT: mstage: stream check: download at streams-races.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-races.cpp:[[#@LINE-4]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]]
    mstage::synchronize();
  }
  {
    mark("event recorded, not waited for");
    // CHECK-LABEL: case event recorded, not waited for
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0), B(N, 0);
    mstage::synchronize();
    mstage::kernel(Inc, 1, N).on(S1)(A);
    mstage::event E = S1.record();
    mstage::kernel(Copy, 1, N).on(S2)(std::as_const(A), B);
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-races.cpp:[[#@LINE-5]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]] on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-4]]
    E.synchronize();
    S2.synchronize();
  }
  {
    mark("graph replay and a stream");
    // CHECK-LABEL: case graph replay and a stream
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    mstage::graph G =
        mstage::capture(S1, [&] { mstage::kernel(Inc, 1, N).on(S1)(A); });
    G.launch(S1);
    mstage::kernel(Inc, 1, N).on(S2)(A);
    // CHECK-NEXT: mstage: stream check: kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-1]] on stream {{[0-9]+}} writes the device_vector made at streams-races.cpp:[[#@LINE-6]], written by graph launch at streams-races.cpp:[[#@LINE-2]] (its kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]]) on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after graph launch at streams-races.cpp:[[#@LINE-3]] (its kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-4]])
    mstage::synchronize();
  }
  {
    mark("pinned memory between two streams");
    // CHECK-LABEL: case pinned memory between two streams
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0), B(N, 0);
    mstage::pinned_vector<int> P(N);
    mstage::synchronize();
    A.download(P, S1);
    B.upload(P, S2);
    // CHECK-NEXT: mstage: stream check: upload at streams-races.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the pinned memory of 32 bytes, written by download at streams-races.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after download at streams-races.cpp:[[#@LINE-3]]
    mstage::synchronize();
  }
  {
    // Reported once, however often it happens.
    mark("a race in a loop");
    // CHECK-LABEL: case a race in a loop
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    for (int I = 0; I < 3; ++I) {
      mstage::kernel(Inc, 1, N).on(S1)(A);
      mstage::kernel(Inc, 1, N).on(S2)(A);
    }
    // CHECK-NEXT: at streams-races.cpp:[[#@LINE-2]] on stream {{[0-9]+}} writes the device_vector made at streams-races.cpp:[[#@LINE-6]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]]
    // CHECK-NEXT: at streams-races.cpp:[[#@LINE-4]] on stream {{[0-9]+}} writes the device_vector made at streams-races.cpp:[[#@LINE-7]], written by kernel '{{[^']+}}' at streams-races.cpp:[[#@LINE-3]]
    // CHECK-NOT: stream check
    mstage::synchronize();
  }
  mark("done");
  // CHECK-LABEL: case done
  // OFF: case done
  // AUTO-NOT: stream check:
  // AUTO: case done
  return 0;
}
