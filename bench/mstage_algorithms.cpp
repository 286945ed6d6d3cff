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
// launch of the call). With MSTAGE_ALGO_SWEEP=1, sum (2^27 and 2^16) and
// transform also run with a handful of other tile shapes, in extra rows
// whose variant names the shape (mstage-b<threads>-i<items per thread>), so
// that one GPU run shows which default to keep. Prints CSV:
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

void row(const std::string &Bench, const std::string &Variant, size_t N,
         const Timing &T, double Bytes, unsigned Block = 256) {
  std::printf("%s,%s,%zu,%u,0,%.6f,%.6f,%.2f\n", Bench.c_str(), Variant.c_str(),
              N, Block, T.Median, T.Min, Bytes / (T.Median * 1e6));
}

[[noreturn]] void failCheck(const std::string &What) {
  std::fprintf(stderr, "FAIL %s\n", What.c_str());
  std::exit(1);
}

std::string shapeName(unsigned Block, unsigned Items) {
  return "mstage-b" + std::to_string(Block) + "-i" + std::to_string(Items);
}

// Block and Items 0: the default shape, in the row "mstage".
template <class T, unsigned Block = 0, unsigned Items = 0>
void benchSum(const char *TypeName, size_t N) {
  double Expected;
  std::vector<T> Host = algorithms::sumInput<T>(N, Expected);
  device_vector<T> In(Host), Out(1);
  sum_fn<Block, Items> Sum;
  Timing Time = timeCalls([&] { Sum(In, Out); });
  double Got = double(Out.get(0));
  if (std::fabs(Got - Expected) > 1e-4 * double(N))
    failCheck(std::string("sum ") + TypeName + " n=" + std::to_string(N) +
              ": " + std::to_string(Got) + ", expected " +
              std::to_string(Expected));
  row(std::string("algo-sum-") + TypeName,
      Block ? shapeName(Block, Items) : "mstage", N, Time,
      double(N) * sizeof(T), Block ? Block : detail::reduce_block);
}

// The sweep's shapes around the default (512 x 64 bytes a thread; Items a
// multiple of the 16-byte chunk).
template <class T> void sweepSum(const char *TypeName, size_t N) {
  constexpr unsigned V = 16 / sizeof(T); // elements in 16 bytes
  benchSum<T, 128, 4 * V>(TypeName, N);
  benchSum<T, 256, 2 * V>(TypeName, N);
  benchSum<T, 256, 4 * V>(TypeName, N);
  benchSum<T, 256, 8 * V>(TypeName, N);
  benchSum<T, 512, 2 * V>(TypeName, N);
  benchSum<T, 1024, 2 * V>(TypeName, N);
}

template <unsigned Block = 0, unsigned Items = 0>
void benchTransform(size_t N) {
  std::vector<float> Host = algorithms::transformInput(N);
  device_vector<float> X(Host), Y(N);
  transform_fn<Block, Items> Transform;
  Timing Time = timeCalls(
      [&] { Transform(X, Y, [](float x) { return 2.0f * x + 1.0f; }); });
  for (size_t I : {size_t(0), N / 3, N - 1})
    if (Y.get(I) != 2.0f * Host[I] + 1.0f)
      failCheck("transform y[" + std::to_string(I) + "]");
  row("algo-transform", Block ? shapeName(Block, Items) : "mstage", N, Time,
      2.0 * double(N) * sizeof(float));
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
  const char *Sweep = std::getenv("MSTAGE_ALGO_SWEEP");
  if (!Sweep || std::strcmp(Sweep, "1"))
    return 0;
  for (size_t N : {size_t(1) << 27, size_t(1) << 16}) {
    sweepSum<int>("int", N);
    sweepSum<float>("float", N);
    sweepSum<double>("double", N);
  }
  size_t N = size_t(1) << 27;
  benchTransform<128, 16>(N);
  benchTransform<256, 8>(N);
  benchTransform<256, 32>(N);
  benchTransform<512, 8>(N);
  benchTransform<512, 16>(N);
  benchTransform<1024, 4>(N);
  return 0;
}
