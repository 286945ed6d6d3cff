// MSTAGE_CHECK=streams says nothing about captured views, view arguments and
// the host's accesses of managed and pinned memory when every conflicting
// use is ordered: an event waited for by a stream or by the host, a
// stream's or the device's synchronization; nor for uses that do not
// conflict (two kernels on two streams that only read a captured non-const
// view, the host reading through a const reference while a kernel reads,
// the host touching a vector no stream has used). The results are compared
// with values computed on the host.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_CHECK=streams %t 2>&1 | FileCheck %s --check-prefix=NOREPORT
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_STREAM_ORDER=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=NOWAIT
// CHECK-NOT: stream check:
// CHECK: results as expected
// CHECK-NOT: stream check:
// CHECK: done
// NOREPORT-NOT: stream check:
// NOREPORT: done
// NOWAIT-NOT: stream order:
// NOWAIT: done

#include <mstage.hpp>

#include <cstdio>
#include <numeric>
#include <utility>
#include <vector>

constexpr int N = 8;

int main() {
  bool Ok = true;
  mstage::stream S1, S2;
  std::vector<int> Out;
  {
    // A captured view written on S1, read on S2 after an event.
    mstage::device_vector<int> A(N, 0), B(N, 0);
    mstage::synchronize();
    auto V = A.view();
    auto Set = [V] { V[mstage::Thread::get().index.x] = 7; };
    auto In = std::as_const(A).view();
    auto Res = B.view();
    auto Twice = [In, Res] {
      unsigned I = mstage::Thread::get().index.x;
      Res[I] = 2 * In[I];
    };
    mstage::kernel(Set, 1, N).on(S1)();
    S2.wait(S1.record());
    mstage::kernel(Twice, 1, N).on(S2)();
    B.download(Out, S2);
    S2.synchronize();
    Ok &= Out == std::vector<int>(N, 14);
    // Two kernels that only read a non-const captured view, each writing
    // its own output: the IR shows no write through A's pointer.
    mstage::device_vector<int> C(N, 0);
    mstage::synchronize(); // C's fill, on the thread's stream
    auto Sum = [V, Res] {
      unsigned I = mstage::Thread::get().index.x;
      Res[I] = V[I] + 1;
    };
    auto Res2 = C.view();
    auto Sum2 = [V, Res2] {
      unsigned I = mstage::Thread::get().index.x;
      Res2[I] = V[I] + 2;
    };
    mstage::kernel(Sum, 1, N).on(S1)();
    mstage::kernel(Sum2, 1, N).on(S2)();
    mstage::synchronize();
    Ok &= B.download() == std::vector<int>(N, 8);
    Ok &= C.download() == std::vector<int>(N, 9);
    // A view argument, then a fill on the other stream after a
    // synchronization of the first.
    auto Inc = [](mstage::vector_view<int> W) {
      W[mstage::Thread::get().index.x] += 1;
    };
    mstage::kernel(Inc, 1, N).on(S1)(A.view());
    S1.synchronize();
    A.fill(3, S2);
    mstage::kernel(Inc, 1, N).on(S2)(A.view());
    S2.synchronize();
    Ok &= A.download() == std::vector<int>(N, 4);
  }
  {
    // Managed memory: the host reads after the stream's synchronization,
    // after an event's, writes after the device's, and reads through a
    // const reference while a kernel on S2 only reads.
    mstage::managed_vector<int> M(N);
    auto Inc = [](auto W) { W[mstage::Thread::get().index.x] += 1; };
    mstage::kernel(Inc, 1, N).on(S1)(M);
    S1.synchronize();
    Ok &= M[0] == 1;
    mstage::kernel(Inc, 1, N).on(S2)(M);
    mstage::event E = S2.record();
    E.synchronize();
    int Total = 0;
    for (int X : M)
      Total += X;
    Ok &= Total == 2 * N;
    auto W = M.view();
    auto Set = [W] { W[mstage::Thread::get().index.x] = 5; };
    mstage::kernel(Set, 1, N).on(S1)();
    mstage::synchronize();
    M[2] = 6;
    Ok &= std::as_const(M).data()[2] == 6 && M[3] == 5;
    mstage::managed_vector<int> Out2(N);
    auto Copy = [](auto In, auto O) {
      unsigned I = mstage::Thread::get().index.x;
      O[I] = In[I];
    };
    mstage::kernel(Copy, 1, N).on(S2)(std::as_const(M), Out2);
    Ok &= std::as_const(M)[2] == 6;
    S2.synchronize();
    Ok &= Out2[2] == 6 && Out2[0] == 5;
    // A vector no stream has used.
    mstage::managed_vector<int> Fresh(N, 4);
    Fresh[0] = 1;
    Ok &= std::accumulate(Fresh.begin(), Fresh.end(), 0) == 1 + 4 * (N - 1);
  }
  {
    // Pinned memory refilled only after the upload's stream is waited for,
    // and read after the download's.
    mstage::device_vector<int> D(N, 0);
    mstage::pinned_vector<int> P(N, 1);
    D.upload(P, S1);
    S1.synchronize();
    std::iota(P.begin(), P.end(), 10);
    D.upload(P, S1);
    mstage::kernel([](auto V) { V[mstage::Thread::get().index.x] *= 2; }, 1,
                   N)
        .on(S1)(D);
    D.download(P, S1);
    S1.synchronize();
    Ok &= P[0] == 20 && std::as_const(P)[N - 1] == 2 * (10 + N - 1);
    // A pinned_vector passed to a kernel as a std::vector is copied there
    // and back: the launch waits, and the host may read it at once.
    mstage::kernel([](auto V) { V[mstage::Thread::get().index.x] += 1; }, 1, N)
        .on(S2)(P);
    Ok &= P[1] == 23;
  }
  std::fprintf(stderr, "results %s\n", Ok ? "as expected" : "WRONG");
  std::fprintf(stderr, "done\n");
  return 0; // the fake driver runs no kernels: the CPU run checks Ok
}
