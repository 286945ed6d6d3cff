// The CUB, Thrust and hand-written CUDA side of issue 18's algorithm
// benchmarks (bench/mstage_algorithms.cpp has mstage's): the same sizes,
// data and checks; the same CSV.
//
//   algorithms_baseline [--reps N]
#include "../AlgorithmsReference.h"
#include "BenchTiming.cuh"

#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int reps = 100;

void row(const std::string &bench, const char *variant, size_t n, int block,
         const Timing &t, double bytes) {
  std::printf("%s,%s,%zu,%d,0,%.6f,%.6f,%.2f\n", bench.c_str(), variant, n,
              block, t.medianMs, t.minMs, bytes / (t.medianMs * 1e6));
}

[[noreturn]] void failCheck(const std::string &what) {
  std::fprintf(stderr, "FAIL %s\n", what.c_str());
  std::exit(1);
}

template <class T> void benchSum(const char *typeName, size_t n) {
  double expected;
  std::vector<T> host = algorithms::sumInput<T>(n, expected);
  T *in, *out;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&out, sizeof(T)));
  CUDA_CHECK(
      cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  size_t tempBytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, tempBytes, in, out, n));
  void *temp;
  CUDA_CHECK(cudaMalloc(&temp, tempBytes));
  Timing t = timeLaunches(
      reps, [&] { cub::DeviceReduce::Sum(temp, tempBytes, in, out, n); },
      [&] {
        T got;
        CUDA_CHECK(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost));
        if (std::fabs(double(got) - expected) > 1e-4 * double(n))
          failCheck(std::string("cub sum ") + typeName);
      });
  row(std::string("algo-sum-") + typeName, "cub", n, 0, t,
      double(n) * sizeof(T));
  CUDA_CHECK(cudaFree(temp));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

struct affine {
  __host__ __device__ float operator()(float x) const {
    return 2.0f * x + 1.0f;
  }
};

__global__ void transformKernel(const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i] + 1.0f;
}

void benchTransform(size_t n) {
  std::vector<float> host = algorithms::transformInput(n);
  thrust::device_vector<float> x(host.begin(), host.end()), y(n);
  auto check = [&] {
    for (size_t i : {size_t(0), n / 3, n - 1})
      if (float(y[i]) != 2.0f * host[i] + 1.0f)
        failCheck("transform");
  };
  Timing t = timeLaunches(
      reps, [&] { thrust::transform(x.begin(), x.end(), y.begin(), affine()); },
      check);
  row("algo-transform", "thrust", n, 0, t, 2.0 * n * sizeof(float));
  const float *xp = thrust::raw_pointer_cast(x.data());
  float *yp = thrust::raw_pointer_cast(y.data());
  t = timeLaunches(
      reps,
      [&] {
        transformKernel<<<unsigned((n + 255) / 256), 256>>>(xp, yp,
                                                            unsigned(n));
      },
      check);
  row("algo-transform", "cuda", n, 256, t, 2.0 * n * sizeof(float));
}

// The body of the stencil, as the mstage lambda has it.
struct stencil {
  const float *a;
  float *b;
  int ny, nx, ey, ex; // interior extents ey, ex
  __host__ __device__ void operator()(unsigned g) const {
    int i = 1 + int(g % ex);
    unsigned r = g / ex;
    int j = 1 + int(r % ey);
    int k = 1 + int(r / ey);
    size_t c = (size_t(k) * ny + j) * nx + i;
    size_t sy = size_t(nx), sz = size_t(nx) * ny;
    b[c] = 0.4f * a[c] + 0.1f * (a[c - 1] + a[c + 1] + a[c - sy] + a[c + sy] +
                                 a[c - sz] + a[c + sz]);
  }
};

__global__ void stencilKernel(stencil s, unsigned n) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < n)
    s(g);
}

void benchStencil(int nz, int ny, int nx) {
  size_t n = size_t(nz) * ny * nx;
  std::vector<float> host = algorithms::stencilInput(n);
  thrust::device_vector<float> a(host.begin(), host.end()), b(n, 0.0f);
  stencil s{thrust::raw_pointer_cast(a.data()),
            thrust::raw_pointer_cast(b.data()),
            ny,
            nx,
            ny - 2,
            nx - 2};
  unsigned interior = unsigned(size_t(nz - 2) * (ny - 2) * (nx - 2));
  size_t c = algorithms::stencilProbe(nz, ny, nx);
  auto check = [&] {
    float want = algorithms::stencilAt(host, c, ny, nx);
    if (std::fabs(float(b[c]) - want) > 1e-4f)
      failCheck("stencil3d");
  };
  Timing t = timeLaunches(
      reps,
      [&] {
        thrust::for_each(thrust::counting_iterator<unsigned>(0),
                         thrust::counting_iterator<unsigned>(interior), s);
      },
      check);
  row("algo-stencil3d", "thrust", interior, 0, t,
      2.0 * interior * sizeof(float));
  t = timeLaunches(
      reps,
      [&] { stencilKernel<<<(interior + 255) / 256, 256>>>(s, interior); },
      check);
  row("algo-stencil3d", "cuda", interior, 256, t,
      2.0 * interior * sizeof(float));
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--reps"))
      reps = std::atoi(argv[i + 1]);
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  for (size_t n : {size_t(1) << 27, (size_t(1) << 27) + 172, size_t(1) << 16}) {
    benchSum<int>("int", n);
    benchSum<float>("float", n);
    benchSum<double>("double", n);
  }
  benchTransform(size_t(1) << 27);
  benchStencil(512, 512, 512);
}
