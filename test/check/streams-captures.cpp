// MSTAGE_CHECK=streams sees the memory a kernel reaches through views and
// pointers captured in its lambda, and through views passed as arguments,
// not only its vector arguments: each capture is a read, or a write when the
// kernel may write through it (a store or an atomic, found in its IR). The
// races are found on the CPU back end, on the GPU path (a fake driver) and in
// PTX-only mode; nothing is said without the check, and
// MSTAGE_STREAM_ORDER=auto waits instead.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: stream check
// OFF: case done
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STREAM_ORDER=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: stream check:

#include <mstage.hpp>

#include <cstdio>
#include <utility>
#include <vector>

constexpr int N = 8;

static void mark(const char *Case) { std::fprintf(stderr, "case %s\n", Case); }

int main() {
  std::vector<int> Host(N, 1), Out;
  mstage::synchronize();
  {
    mark("captured view written, downloaded on another stream");
    // CHECK-LABEL: case captured view written, downloaded on another stream
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    auto V = A.view();
    auto Set = [V] { V[mstage::Thread::get().index.x] = 7; };
    mstage::kernel(Set, 1, N).on(S1)();
    A.download(Out, S2);
    // CHECK-NEXT: mstage: stream check: download at streams-captures.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-captures.cpp:[[#@LINE-6]], written by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event or synchronization between them
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-3]]
    mstage::synchronize();
  }
  {
    // A view of T only read is a read: the upload conflicts with it, and
    // the output, written, with the other stream's download.
    mark("captured view read while another stream uploads");
    // CHECK-LABEL: case captured view read while another stream uploads
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0), B(N, 0);
    mstage::synchronize();
    auto In = A.view();
    auto Res = B.view();
    auto Twice = [In, Res] {
      unsigned I = mstage::Thread::get().index.x;
      Res[I] = 2 * In[I];
    };
    mstage::kernel(Twice, 1, N).on(S1)();
    A.upload(Host, S2);
    // CHECK-NEXT: mstage: stream check: upload at streams-captures.cpp:[[#@LINE-1]] on stream {{[0-9]+}} writes the device_vector made at streams-captures.cpp:[[#@LINE-10]], read by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    B.download(Out, S2);
    // CHECK-NEXT: mstage: stream check: download at streams-captures.cpp:[[#@LINE-1]] on stream {{[0-9]+}} reads the device_vector made at streams-captures.cpp:[[#@LINE-12]], written by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-4]] on stream {{[0-9]+}} with no event
    // AUTO: mstage: stream order: stream {{[0-9]+}} waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-5]]
    mstage::synchronize();
  }
  {
    mark("atomics through a captured pointer on two streams");
    // CHECK-LABEL: case atomics through a captured pointer on two streams
    mstage::stream S1, S2;
    mstage::device_vector<int> Sum(1, 0);
    mstage::synchronize();
    int *P = Sum.data();
    auto Add = [P] { mstage::atomic_ref<int>(*P).fetch_add(1); };
    mstage::kernel(Add, 1, N).on(S1)();
    mstage::kernel(Add, 1, N).on(S2)();
    // A kernel is named as the sites are, by its file without folders.
    // CHECK-NEXT: mstage: stream check: kernel 'main::{{[^'@/]+}}@streams-captures.cpp:{{[0-9]+}}:{{[0-9]+}}' at streams-captures.cpp:[[#@LINE-2]] on stream {{[0-9]+}} writes the device_vector made at streams-captures.cpp:[[#@LINE-7]], written by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-3]] on stream {{[0-9]+}} with no event
    mstage::synchronize();
  }
  {
    mark("a view passed as an argument");
    // CHECK-LABEL: case a view passed as an argument
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    auto Inc = [](mstage::vector_view<int> V) {
      V[mstage::Thread::get().index.x] += 1;
    };
    mstage::kernel(Inc, 1, N).on(S1)(A.view());
    A.fill(3, S2);
    // CHECK-NEXT: mstage: stream check: fill at streams-captures.cpp:[[#@LINE-1]] on stream {{[0-9]+}} writes the device_vector made at streams-captures.cpp:[[#@LINE-7]], written by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    mstage::synchronize();
  }
  {
    // A view of the second half counts from there: a copy into the first
    // half does not conflict with it, one into the second does.
    mark("a view of part of a vector");
    // CHECK-LABEL: case a view of part of a vector
    mstage::stream S1, S2;
    mstage::device_vector<int> A(N, 0);
    mstage::synchronize();
    int *Half = A.data() + N / 2;
    auto Set = [Half] { Half[mstage::Thread::get().index.x] = 5; };
    mstage::kernel(Set, 1, N / 2).on(S1)();
    A.upload(Host.data(), N / 2, 0, S2);
    A.upload(Host.data(), N / 2, N / 2, S2);
    // CHECK-NEXT: mstage: stream check: upload at streams-captures.cpp:[[#@LINE-1]] on stream {{[0-9]+}} writes the device_vector made at streams-captures.cpp:[[#@LINE-7]], written by kernel '{{[^']+}}' at streams-captures.cpp:[[#@LINE-3]] on stream {{[0-9]+}} with no event
    mstage::synchronize();
  }
  mark("done");
  // CHECK-LABEL: case done
  // CHECK-NOT: stream check
  // AUTO: case done
  return 0;
}
