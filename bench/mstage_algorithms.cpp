// mstage's side of issue 18's algorithm benchmarks (items 1, 2, 5):
//
//   mstage_algorithms [--reps N]
//
//  - algo-sum-<type>: mstage::sum into device memory at 2^27, 2^27 + 172 and
//    2^16 ints, floats and doubles, against cub::DeviceReduce::Sum;
//  - algo-transform: y = 2x + 1 on 2^27 floats (mstage::transform), against
//    thrust::transform and a hand-written CUDA kernel;
//  - algo-stencil3d: a 7-point stencil over the interior of a 512^3 float
//    grid with a 3-D parallel_for, against thrust::for_each and CUDA.
//
// Each time is one call on the current stream between two events (every
// launch of the call: a reduction is two). Prints CSV:
// benchmark,variant,n,block,grid,median_ms,min_ms,gbps; the baselines are
// bench/cuda/algorithms_baseline.cu. Results are checked against the host
// before the times count.
#include "AlgorithmsReference.h"

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mstage;

namespace {

int Reps = 100;
constexpr int Warmups = 5;

struct Timing {
  double Median, Min;
};

template <class F> Timing timeCalls(F Call) {
  for (int I = 0; I < Warmups; ++I)
    Call();
  mstage::jit_wait();
  current_stream().synchronize();
  std::vector<double> Ms;
  for (int I = 0; I < Reps; ++I) {
    event Start = current_stream().record();
    Call();
    event End = current_stream().record();
    End.synchronize();
    Ms.push_back(elapsed_ms(Start, End));
  }
  std::sort(Ms.begin(), Ms.end());
  return {Ms[Ms.size() / 2], Ms.front()};
}

void row(const std::string &Bench, const char *Variant, size_t N,
         const Timing &T, double Bytes) {
  std::printf("%s,%s,%zu,256,0,%.6f,%.6f,%.2f\n", Bench.c_str(), Variant, N,
              T.Median, T.Min, Bytes / (T.Median * 1e6));
}

[[noreturn]] void failCheck(const std::string &What) {
  std::fprintf(stderr, "FAIL %s\n", What.c_str());
  std::exit(1);
}

template <class T> void benchSum(const char *TypeName, size_t N) {
  double Expected;
  std::vector<T> Host = algorithms::sumInput<T>(N, Expected);
  device_vector<T> In(Host), Out(1);
  Timing Time = timeCalls([&] { sum(In, Out); });
  double Got = double(Out.get(0));
  if (std::fabs(Got - Expected) > 1e-4 * double(N))
    failCheck(std::string("sum ") + TypeName + " n=" + std::to_string(N) +
              ": " + std::to_string(Got) + ", expected " +
              std::to_string(Expected));
  row(std::string("algo-sum-") + TypeName, "mstage", N, Time,
      double(N) * sizeof(T));
}

void benchTransform(size_t N) {
  std::vector<float> Host = algorithms::transformInput(N);
  device_vector<float> X(Host), Y(N);
  Timing Time = timeCalls(
      [&] { transform(X, Y, [](float x) { return 2.0f * x + 1.0f; }); });
  for (size_t I : {size_t(0), N / 3, N - 1})
    if (Y.get(I) != 2.0f * Host[I] + 1.0f)
      failCheck("transform y[" + std::to_string(I) + "]");
  row("algo-transform", "mstage", N, Time, 2.0 * double(N) * sizeof(float));
}

void benchStencil(int Nz, int Ny, int Nx) {
  size_t N = size_t(Nz) * Ny * Nx;
  std::vector<float> Host = algorithms::stencilInput(N);
  device_vector<float> In(Host), Out(N, 0.0f);
  auto A = In.view();
  auto B = Out.view();
  Timing Time = timeCalls([&] {
    parallel_for(bounds<3>{{1, Nz - 2}, {1, Ny - 2}, {1, Nx - 2}},
                 [=](int k, int j, int i) {
                   size_t c = (size_t(k) * Ny + j) * Nx + i;
                   size_t sy = size_t(Nx), sz = size_t(Nx) * Ny;
                   B[c] = 0.4f * A[c] +
                          0.1f * (A[c - 1] + A[c + 1] + A[c - sy] +
                                  A[c + sy] + A[c - sz] + A[c + sz]);
                 });
  });
  size_t c = algorithms::stencilProbe(Nz, Ny, Nx);
  float Want = algorithms::stencilAt(Host, c, Ny, Nx);
  if (std::fabs(Out.get(c) - Want) > 1e-4f)
    failCheck("stencil3d");
  size_t Interior = size_t(Nz - 2) * (Ny - 2) * (Nx - 2);
  row("algo-stencil3d", "mstage", Interior, Time,
      2.0 * double(Interior) * sizeof(float));
}

} // namespace

int main(int argc, char **argv) {
  for (int I = 1; I + 1 < argc; I += 2)
    if (!std::strcmp(argv[I], "--reps"))
      Reps = std::atoi(argv[I + 1]);
  if (mstage_rt_executes() != 1) {
    std::fprintf(stderr, "mstage_algorithms: needs a GPU\n");
    return 1;
  }
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  for (size_t N : {size_t(1) << 27, (size_t(1) << 27) + 172, size_t(1) << 16}) {
    benchSum<int>("int", N);
    benchSum<float>("float", N);
    benchSum<double>("double", N);
  }
  benchTransform(size_t(1) << 27);
  benchStencil(512, 512, 512);
}
