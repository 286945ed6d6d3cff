// Two host threads reduce on one stream at once, 400 times each, on the CPU
// back end, where each launch runs on the thread that makes it: each call's
// sum must be std::accumulate's. The two used to share the stream's ticket
// counter and partials, and 183 to 277 of 400 sums were wrong. The inputs
// span several tiles, so that each reduction is several blocks and takes the
// ticket; the threads alternate the result on the host and into device
// memory, on the stream given and on a second stream shared the same way.
//
// RUN: %mstagexx -O2 -std=c++17 %s -o %t -pthread
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS reduce-two-threads-one-stream calls=1600

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <atomic>
#include <cstdio>
#include <numeric>
#include <thread>
#include <vector>

int main() {
  constexpr int Calls = 400;
  mstage::stream Shared, Other;
  std::atomic<int> Done{0}, Wrong{0};
  auto Work = [&](int Who) {
    // Different data per thread, so that a sum taken from the other's
    // partials shows.
    std::size_t N = 5 * 8192 + 17 + Who * 1000;
    std::vector<long long> Host(N);
    std::iota(Host.begin(), Host.end(), 1 + 7 * (long long)Who);
    long long Want = std::accumulate(Host.begin(), Host.end(), 0LL);
    mstage::device_vector<long long> V(Host), Out(1);
    for (int I = 0; I < Calls; ++I) {
      mstage::stream &S = I % 4 < 2 ? Shared : Other;
      long long Got;
      if (I % 2 == 0) {
        Got = mstage::sum.on(S)(V.view());
      } else {
        mstage::sum.on(S)(V.view(), Out.view());
        S.synchronize();
        Got = Out.download()[0];
      }
      if (Got != Want && Wrong++ < 5)
        std::printf("FAIL thread %d call %d: sum %lld, std::accumulate %lld\n",
                    Who, I, Got, Want);
      ++Done;
    }
  };
  // Twice: the second time the rooms are the stream's spares.
  for (int Round = 0; Round < 2; ++Round) {
    std::thread A(Work, 0), B(Work, 1);
    A.join();
    B.join();
  }
  if (Wrong)
    std::printf("FAIL reduce-two-threads-one-stream: %d of %d sums wrong\n",
                Wrong.load(), Done.load());
  else
    std::printf("PASS reduce-two-threads-one-stream calls=%d\n", Done.load());
  return Wrong != 0;
}
