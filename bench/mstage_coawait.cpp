// Issue 37 item 8: what co_await on a launch costs against waiting with
// cuEventSynchronize, per round trip (launch, wait, go on), for kernels of
// four lengths (one thread stepping a recurrence Iters times: about 0, 25
// us, 1 ms and 10 ms on an H100).
//
//   mstage_coawait [--quick]   --quick: few repetitions (also on the CPU
//                              back end, as a smoke test)
//
// Variants, each R round trips in a row, 5 runs, the median run's time per
// round trip:
//   sync     mstage::async(launch::kernel, k, ...).wait() (cuEventSynchronize)
//   coawait  co_await mstage::async(launch::kernel, k, ...) in an
//            mstage::task run by sync_wait: after the first round trip the
//            task runs on the await thread, which polls the event
// coawait - sync is the resume latency the await thread adds (stderr's
// "# resume latency" lines). The result of each run is checked against the
// host's recurrence: FAIL and exit status 1 if it differs.
#include "AsyncReference.h"

#include <mstage.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace asyncbench;

namespace {

auto stepper() {
  return mstage::kernel(
      [](auto &V, int Iters) {
        float X = V[0];
        for (int K = 0; K < Iters; ++K)
          X = X * 0.999f + 1.0f;
        V[0] = X;
      },
      1, 1);
}

float hostSteps(float X, int Iters, int Times) {
  for (int T = 0; T < Times; ++T)
    for (int K = 0; K < Iters; ++K)
      X = X * 0.999f + 1.0f;
  return X;
}

template <class K>
mstage::task<void> roundTrips(const K &Step, mstage::device_vector<float> &V,
                              int Iters, int R) {
  for (int I = 0; I < R; ++I)
    co_await mstage::async(mstage::launch::kernel, Step, V, Iters);
}

void check(mstage::device_vector<float> &V, int Iters, int R,
           const char *Variant) {
  float Got = V.get(0), Want = hostSteps(0.f, Iters, R);
  if (std::fabs(Got - Want) > 1e-3f * std::fmax(1.f, std::fabs(Want)))
    fail(std::string(Variant) + ": " + std::to_string(Got) + ", host " +
         std::to_string(Want));
}

} // namespace

int main(int Argc, char **Argv) {
  bool Quick = Argc > 1 && std::strcmp(Argv[1], "--quick") == 0;
  if (mstage_rt_executes() != 1) {
    std::fprintf(stderr, "mstage_coawait: kernels do not run here (%s)\n",
                 mstage_rt_backend());
    return 0;
  }
  std::fprintf(stderr, "# back end: %s\n", mstage_rt_backend());
  struct Length {
    const char *Name;
    int Iters, R;
  };
  const std::vector<Length> Lengths = {{"empty", 0, 2000},
                                       {"25us", 10000, 1000},
                                       {"1ms", 400000, 100},
                                       {"10ms", 4000000, 20}};
  const int Runs = Quick ? 1 : 5;
  auto Step = stepper();
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  for (const Length &L : Lengths) {
    int Iters = Quick ? L.Iters / 1000 : L.Iters, R = Quick ? 4 : L.R;
    std::string Bench = std::string("coawait-") + L.Name;
    mstage::device_vector<float> V(1, 0.f);
    // Warm: the kernel compiled, the await thread started.
    mstage::sync_wait(roundTrips(Step, V, Iters, 1));
    std::vector<double> Sync, Await;
    for (int Run = 0; Run < Runs; ++Run) {
      V.upload(std::vector<float>{0.f});
      double T0 = nowMs();
      for (int I = 0; I < R; ++I)
        mstage::async(mstage::launch::kernel, Step, V, Iters).wait();
      Sync.push_back((nowMs() - T0) / R);
      check(V, Iters, R, "sync");
      V.upload(std::vector<float>{0.f});
      T0 = nowMs();
      mstage::sync_wait(roundTrips(Step, V, Iters, R));
      Await.push_back((nowMs() - T0) / R);
      check(V, Iters, R, "coawait");
    }
    Summary S = summarize(Sync), A = summarize(Await);
    printRow(Bench.c_str(), "sync", size_t(Iters), 1, 1, S, 0);
    printRow(Bench.c_str(), "coawait", size_t(Iters), 1, 1, A, 0);
    std::fprintf(stderr,
                 "# resume latency %s: co_await %.2f us, cuEventSynchronize "
                 "%.2f us a round trip: %+.2f us\n",
                 L.Name, A.Median * 1e3, S.Median * 1e3,
                 (A.Median - S.Median) * 1e3);
  }
  return 0;
}
