// MSTAGE_CHECK=streams sees the host's own reads and writes of managed and
// pinned memory (a managed_vector's or pinned_vector's operator[], data()
// and begin()) while a kernel or a copy on a stream that the host has not
// waited for may still use it; a non-const access counts as a write. Both
// the host's line and the stream's operation are named. The races are found
// on the CPU back end, on the GPU path (a fake driver) and in PTX-only mode;
// with MSTAGE_STREAM_ORDER=auto the host waits for the stream instead.
// operator[] is checked element by element in a unit built with the checks
// (-fmstage-checks here); built without them (-O2 alone: PLAIN), it is a
// plain load, not seen, and a note at exit names the unit; data() and
// begin() are seen in both.
//
// RUN: %mstagexx -O2 -fmstage-checks %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: stream check
// OFF: case done
// OFF-NOT: mstage: note:
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STREAM_ORDER=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: stream check:
// RUN: %mstagexx -O2 %s -o %t.plain
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STREAM_ORDER=auto %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN-AUTO
// RUN: env MSTAGE_BACKEND=cpu %t.plain 2>&1 | FileCheck %s --check-prefix=OFF
// PLAIN-AUTO: mstage: note: MSTAGE_STREAM_ORDER=auto does not see the managed_vector and pinned_vector operator[] of units built without the checks: streams-host.cpp (built at -O1 or above)

#include <mstage.hpp>

#include <cstdio>
#include <numeric>
#include <utility>
#include <vector>

constexpr int N = 8;

static void mark(const char *Case) { std::fprintf(stderr, "case %s\n", Case); }

int main() {
  auto Inc = [](auto V) { V[mstage::Thread::get().index.x] += 1; };
  long Seen = 0; // keeps the host's reads
  mstage::synchronize();
  {
    mark("host reads what a kernel writes");
    // CHECK-LABEL: case host reads what a kernel writes
    // PLAIN-LABEL: case host reads what a kernel writes
    // PLAIN-NOT: stream check
    mstage::stream S;
    mstage::managed_vector<int> M(N);
    mstage::kernel(Inc, 1, N).on(S)(M);
    Seen += std::as_const(M)[0];
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-1]] (managed_vector::operator[]) reads the managed_vector made at streams-host.cpp:[[#@LINE-3]], written by kernel '{{[^']+}}' at streams-host.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event or synchronization between them
    // AUTO: mstage: stream order: the host waits for stream {{[0-9]+}} after kernel '{{[^']+}}' at streams-host.cpp:[[#@LINE-3]]
    S.synchronize();
  }
  {
    // A non-const access may write: it conflicts with a kernel's read.
    mark("host writes what a kernel reads");
    // CHECK-LABEL: case host writes what a kernel reads
    // PLAIN-LABEL: case host writes what a kernel reads
    // PLAIN-NOT: stream check
    mstage::stream S;
    mstage::managed_vector<int> M(N), Out(N);
    auto Copy = [](auto In, auto O) {
      unsigned I = mstage::Thread::get().index.x;
      O[I] = In[I];
    };
    mstage::kernel(Copy, 1, N).on(S)(std::as_const(M), Out);
    M[3] = 4;
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-1]] (managed_vector::operator[]) writes the managed_vector made at streams-host.cpp:[[#@LINE-7]], read by kernel '{{[^']+}}' at streams-host.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    S.synchronize();
  }
  {
    // A kernel that writes through a captured view; the host reads every
    // element in a range for.
    mark("range for over what a captured view writes");
    // CHECK-LABEL: case range for over what a captured view writes
    // PLAIN-LABEL: case range for over what a captured view writes
    // PLAIN-NEXT: mstage: stream check: host code at streams-host.cpp:{{[0-9]+}} (managed_vector::begin) writes
    mstage::stream S;
    mstage::managed_vector<int> M(N);
    auto V = M.view();
    auto Set = [V] { V[mstage::Thread::get().index.x] = 2; };
    mstage::kernel(Set, 1, N).on(S)();
    for (int X : M)
      Seen += X;
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-2]] (managed_vector::begin) writes the managed_vector made at streams-host.cpp:[[#@LINE-6]], written by kernel '{{[^']+}}' at streams-host.cpp:[[#@LINE-3]] on stream {{[0-9]+}} with no event
    S.synchronize();
  }
  {
    // An event recorded after the kernel, never waited for on the host.
    mark("data() after an event not waited for");
    // CHECK-LABEL: case data() after an event not waited for
    // PLAIN-LABEL: case data() after an event not waited for
    // PLAIN-NEXT: mstage: stream check: host code at streams-host.cpp:{{[0-9]+}} (managed_vector::data) reads
    mstage::stream S;
    mstage::managed_vector<int> M(N);
    mstage::kernel(Inc, 1, N).on(S)(M);
    mstage::event E = S.record();
    const int *P = std::as_const(M).data();
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-1]] (managed_vector::data) reads the managed_vector made at streams-host.cpp:[[#@LINE-4]], written by kernel '{{[^']+}}' at streams-host.cpp:[[#@LINE-3]] on stream {{[0-9]+}} with no event
    E.synchronize();
    Seen += P[0];
  }
  {
    // The host refills a pinned buffer that an upload on S may still be
    // reading.
    mark("host writes a pinned buffer an upload reads");
    // CHECK-LABEL: case host writes a pinned buffer an upload reads
    // PLAIN-LABEL: case host writes a pinned buffer an upload reads
    // PLAIN-NEXT: mstage: stream check: host code at streams-host.cpp:{{[0-9]+}} (pinned_vector::begin) writes
    mstage::stream S;
    mstage::device_vector<int> D(N, 0);
    mstage::pinned_vector<int> P(N, 1);
    D.upload(P, S);
    std::iota(P.begin(), P.end(), 0);
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-1]] (pinned_vector::begin) writes the pinned memory of 32 bytes, read by upload at streams-host.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    S.synchronize();
  }
  {
    // A download into pinned memory, read before it is waited for.
    mark("host reads a pinned buffer a download writes");
    // CHECK-LABEL: case host reads a pinned buffer a download writes
    // PLAIN-LABEL: case host reads a pinned buffer a download writes
    // PLAIN-NOT: stream check
    mstage::stream S;
    mstage::device_vector<int> D(N, 5);
    mstage::pinned_vector<int> P(N);
    D.download(P, S);
    Seen += std::as_const(P)[N - 1];
    // CHECK-NEXT: mstage: stream check: host code at streams-host.cpp:[[#@LINE-1]] (pinned_vector::operator[]) reads the pinned memory of 32 bytes, written by download at streams-host.cpp:[[#@LINE-2]] on stream {{[0-9]+}} with no event
    S.synchronize();
  }
  mark("done");
  // CHECK-LABEL: case done
  // CHECK-NOT: stream check
  // CHECK-NOT: mstage: note:
  // PLAIN-LABEL: case done
  // PLAIN-NOT: stream check
  // PLAIN: mstage: note: MSTAGE_CHECK=streams does not see the managed_vector and pinned_vector operator[] of units built without the checks: streams-host.cpp (built at -O1 or above); their data() and begin() it sees (-fmstage-checks checks each element)
  // AUTO: case done
  std::printf("%ld\n", Seen);
  return 0;
}
