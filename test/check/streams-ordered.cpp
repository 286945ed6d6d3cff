// MSTAGE_CHECK=streams says nothing when every conflicting use is ordered:
// by an event wait, a stream's or the device's synchronization, a future,
// one stream, the runtime's own wait at a vector's first use on a stream;
// nor for uses that do not conflict (two reads, disjoint ranges, an empty
// vector, one vector passed twice), for memory freed on one stream and
// made again on another, or for two threads on their own streams. The
// results are compared with a count kept on the host.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s --check-prefix=NOREPORT
// CHECK-NOT: stream check:
// CHECK: results as expected
// CHECK-NOT: stream check:
// CHECK: done
// NOREPORT-NOT: stream check:
// NOREPORT: done

#include <mstage.hpp>

#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

constexpr int N = 8;

int main() {
  auto Inc = [](auto V) { V[mstage::Thread::get().index.x] += 1; };
  auto Copy = [](auto In, auto Out) {
    unsigned I = mstage::Thread::get().index.x;
    Out[I] = In[I];
  };
  auto K = mstage::kernel(Inc, 1, N);
  auto C = mstage::kernel(Copy, 1, N);
  std::vector<int> Host(N, 1), Out;
  bool Ok = true;
  auto Expect = [&](const mstage::device_vector<int> &V, int Value) {
    for (int X : V.download())
      Ok &= X == Value;
  };
  mstage::stream S1, S2;
  mstage::device_vector<int> A(N, 0), B1(N, 0), B2(N, 0);
  int Count = 0; // what A holds

  // An event waited for.
  K.on(S1)(A);
  S2.wait(S1.record());
  K.on(S2)(A);
  Count += 2;
  // A stream's synchronization, then the device's.
  S2.synchronize();
  K.on(S1)(A);
  mstage::synchronize();
  K.on(S2)(A);
  Count += 2;
  // A future.
  S2.synchronize();
  mstage::async(mstage::launch::kernel, K.on(S1), A).get();
  K.on(S2)(A);
  Count += 2;
  S2.synchronize();
  // One stream: copies and launches in order.
  A.upload(Host, S1);
  K.on(S1)(A);
  A.download(Out, S1);
  S1.synchronize();
  Count = 2;
  Ok &= Out == std::vector<int>(N, 2);
  // Without streams: the thread's stream, and the sync download.
  A.upload(Host);
  K(A);
  Count = 2;
  Expect(A, Count);
  // Two reads on two streams, each writing its own vector.
  C.on(S1)(std::as_const(A), B1);
  C.on(S2)(std::as_const(A), B2);
  mstage::synchronize();
  Expect(B1, Count);
  Expect(B2, Count);
  // Disjoint halves from two streams.
  A.upload(Host.data(), N / 2, 0, S1);
  A.upload(Host.data(), N / 2, N / 2, S2);
  mstage::synchronize();
  Count = 1;
  Expect(A, Count);
  // One vector passed twice to one launch.
  C.on(S1)(std::as_const(A), A);
  S1.synchronize();
  Expect(A, Count);
  // An empty vector on two streams.
  mstage::device_vector<int> Empty(0);
  auto Nothing = mstage::kernel([](auto) {}, 1, 1);
  Nothing.on(S1)(Empty);
  Nothing.on(S2)(Empty);
  // A graph replayed, then the stream synchronized.
  mstage::graph G = mstage::capture(S1, [&] { K.on(S1)(A); });
  G.launch(S1);
  G.launch(S1);
  S1.synchronize();
  K.on(S2)(A);
  S2.synchronize();
  Count += 3;
  Expect(A, Count);
  // Made on S1, first used on S2: that use waits for S1's work.
  {
    mstage::device_vector<int> D(N, S1);
    D.fill(5, S1);
    K.on(S2)(D);
    S2.synchronize();
    Expect(D, 6);
  }
  // Memory freed on one stream and made again on another.
  for (int I = 0; I < 4; ++I) {
    mstage::device_vector<int> T(N, I % 2 ? S1 : S2);
    T.fill(I, I % 2 ? S1 : S2);
    K.on(I % 2 ? S1 : S2)(T);
  }
  mstage::synchronize();
  // Two threads, each on its own default stream with its own vector.
  std::vector<std::thread> Threads;
  std::vector<int> Seen(2, -1);
  for (int T = 0; T < 2; ++T)
    Threads.emplace_back([&, T] {
      mstage::device_vector<int> V(N, T);
      K(V);
      Seen[T] = V.get(N - 1);
    });
  for (std::thread &T : Threads)
    T.join();
  Ok &= Seen[0] == 1 && Seen[1] == 2;
  std::fprintf(stderr, "results %s\n", Ok ? "as expected" : "WRONG");
  std::fprintf(stderr, "done\n");
  return 0; // the fake driver runs no kernels: the CPU run checks Ok
}
