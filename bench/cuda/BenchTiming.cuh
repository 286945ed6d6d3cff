// Shared by the CUDA baselines: error checking and event timing.
#ifndef MSTAGE_BENCH_CUDA_BENCHTIMING_CUH
#define MSTAGE_BENCH_CUDA_BENCHTIMING_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error at %s:%d: %s\n  in: %s\n", __FILE__,    \
                   __LINE__, cudaGetErrorString(err_), #call);                 \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

constexpr int kWarmups = 5;

struct Timing {
  double medianMs;
  double minMs;
};

// Calls launch() kWarmups times, then check() (which must exit on a wrong
// result), then times `trials` loops of `reps` launches, each loop between
// two CUDA events (the launches asynchronous); each figure is one loop's
// time per launch. Issue 34's application ports time loops of launches.
inline Timing timeLoops(int reps, int trials,
                        const std::function<void()> &launch,
                        const std::function<void()> &check) {
  for (int r = 0; r < kWarmups; ++r)
    launch();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  check();

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms(trials);
  for (int t = 0; t < trials; ++t) {
    CUDA_CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
      launch();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float total = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&total, start, stop));
    ms[t] = double(total) / reps;
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));

  std::sort(ms.begin(), ms.end());
  double median =
      trials % 2 ? ms[trials / 2] : 0.5 * (ms[trials / 2 - 1] + ms[trials / 2]);
  return {median, ms.front()};
}

// The same with CUDA events around each launch: `reps` loops of one.
inline Timing timeLaunches(int reps, const std::function<void()> &launch,
                           const std::function<void()> &check) {
  return timeLoops(1, reps, launch, check);
}

// A device copy of V, and V back from one.
template <class T> T *deviceCopy(const std::vector<T> &V) {
  T *D;
  CUDA_CHECK(cudaMalloc(&D, V.size() * sizeof(T)));
  CUDA_CHECK(
      cudaMemcpy(D, V.data(), V.size() * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}
template <class T> void download(std::vector<T> &V, const T *D) {
  CUDA_CHECK(
      cudaMemcpy(V.data(), D, V.size() * sizeof(T), cudaMemcpyDeviceToHost));
}

#endif
