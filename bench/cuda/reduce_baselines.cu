// Hand-written CUDA baselines for the reduction benchmark (paper Listing 3).
//
//   reduce_baselines [--reps N] [--grid G]
//
// For n = 2^27 and n = 2^27 + 172 ints (values (i % 7) - 3) this measures:
//   copy           cudaMemcpyAsync device-to-device of the n-int input;
//                  gbps counts the bytes read plus the bytes written (2*n*4).
//                  Reported as benchmark "copy", variant "memcpy-dtod"; the
//                  others as benchmark "reduce".
//   nvcc-template  NVIDIA SDK reduce6: template <blockSize, nIsPow2>.
//   nvcc-runtime   the same kernel with blockSize and nIsPow2 as parameters.
//   cub            cub::DeviceReduce::Sum over the whole array (full sum).
//
// The two nvcc kernels produce one partial sum per block; only that kernel is
// timed (the partials are added on the host for the check), as for mstage.
//
// Launch configuration: block = 256,
//   grid = 2 * numSMs * (2048 / block)   (numSMs from the device properties;
//                                         2112 blocks on a 132-SM H100/H200).
// --grid G overrides the grid size.
//
// Timing: CUDA events around each launch, 5 warm-ups, median (and min) of
// --reps repetitions (default 100, at least 50). Each variant's result is
// checked against a CPU long long sum after the warm-ups and again after the
// timed repetitions; a wrong result prints FAIL and exits with status 1.
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
//         gbps = n*4 bytes / median time (copy: 2*n*4 bytes), in 1e9 B/s.
// stderr: '#' lines with the device and the launch configuration.

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "BenchTiming.cuh"

namespace {

constexpr unsigned kBlock = 256;
constexpr int kMinReps = 50;

} // namespace

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// NVIDIA SDK reduce6 (Listing 3). Every level of the tree reduction ends in a
// barrier, as in Listing 3 (no warp-synchronous tail, which is not safe on
// Volta and later).
template <unsigned blockSize, bool nIsPow2>
__global__ void __launch_bounds__(blockSize)
    reduceTemplate(const int *input, int *output, unsigned n) {
  __shared__ int sm[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + tid;
  unsigned gridSize = blockSize * 2 * gridDim.x;

  int sum = 0;
  while (i < n) {
    sum += input[i];
    if (nIsPow2 || i + blockSize < n)
      sum += input[i + blockSize];
    i += gridSize;
  }
  sm[tid] = sum;
  __syncthreads();

  if (blockSize >= 1024) {
    if (tid < 512)
      sm[tid] += sm[tid + 512];
    __syncthreads();
  }
  if (blockSize >= 512) {
    if (tid < 256)
      sm[tid] += sm[tid + 256];
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128)
      sm[tid] += sm[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64)
      sm[tid] += sm[tid + 64];
    __syncthreads();
  }
  if (blockSize >= 64) {
    if (tid < 32)
      sm[tid] += sm[tid + 32];
    __syncthreads();
  }
  if (blockSize >= 32) {
    if (tid < 16)
      sm[tid] += sm[tid + 16];
    __syncthreads();
  }
  if (blockSize >= 16) {
    if (tid < 8)
      sm[tid] += sm[tid + 8];
    __syncthreads();
  }
  if (blockSize >= 8) {
    if (tid < 4)
      sm[tid] += sm[tid + 4];
    __syncthreads();
  }
  if (blockSize >= 4) {
    if (tid < 2)
      sm[tid] += sm[tid + 2];
    __syncthreads();
  }
  if (blockSize >= 2) {
    if (tid < 1)
      sm[tid] += sm[tid + 1];
    __syncthreads();
  }
  if (tid == 0)
    output[blockIdx.x] = sm[0];
}

// The same kernel with blockSize and nIsPow2 known only at run time.
// Dynamic shared memory: blockSize ints.
__global__ void reduceRuntime(const int *input, int *output, unsigned n,
                              unsigned blockSize, bool nIsPow2) {
  extern __shared__ int sm[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + tid;
  unsigned gridSize = blockSize * 2 * gridDim.x;

  int sum = 0;
  while (i < n) {
    sum += input[i];
    if (nIsPow2 || i + blockSize < n)
      sum += input[i + blockSize];
    i += gridSize;
  }
  sm[tid] = sum;
  __syncthreads();

  if (blockSize >= 1024) {
    if (tid < 512)
      sm[tid] += sm[tid + 512];
    __syncthreads();
  }
  if (blockSize >= 512) {
    if (tid < 256)
      sm[tid] += sm[tid + 256];
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128)
      sm[tid] += sm[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64)
      sm[tid] += sm[tid + 64];
    __syncthreads();
  }
  if (blockSize >= 64) {
    if (tid < 32)
      sm[tid] += sm[tid + 32];
    __syncthreads();
  }
  if (blockSize >= 32) {
    if (tid < 16)
      sm[tid] += sm[tid + 16];
    __syncthreads();
  }
  if (blockSize >= 16) {
    if (tid < 8)
      sm[tid] += sm[tid + 8];
    __syncthreads();
  }
  if (blockSize >= 8) {
    if (tid < 4)
      sm[tid] += sm[tid + 4];
    __syncthreads();
  }
  if (blockSize >= 4) {
    if (tid < 2)
      sm[tid] += sm[tid + 2];
    __syncthreads();
  }
  if (blockSize >= 2) {
    if (tid < 1)
      sm[tid] += sm[tid + 1];
    __syncthreads();
  }
  if (tid == 0)
    output[blockIdx.x] = sm[0];
}

namespace {

//===----------------------------------------------------------------------===//
// Host helpers
//===----------------------------------------------------------------------===//

bool isPow2(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

[[noreturn]] void fail(const char *variant, unsigned n, const char *what) {
  std::printf("FAIL,%s,%u,%s\n", variant, n, what);
  std::fflush(stdout);
  std::fprintf(stderr, "FAIL: %s, n = %u: %s\n", variant, n, what);
  std::exit(1);
}

Timing measure(int reps, const std::function<void()> &launch,
               const std::function<void()> &check) {
  Timing t = timeLaunches(reps, launch, check);
  check();
  return t;
}

void printRow(const char *benchmark, const char *variant, unsigned n,
              unsigned block, unsigned grid, Timing t, double bytes) {
  double gbps = bytes / (t.medianMs * 1e-3) / 1e9;
  std::printf("%s,%s,%u,%u,%u,%.6f,%.6f,%.3f\n", benchmark, variant, n, block,
              grid, t.medianMs, t.minMs, gbps);
  std::fflush(stdout);
}

void usage(const char *argv0) {
  std::fprintf(stderr, "usage: %s [--reps N] [--grid G]\n", argv0);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 100;
  unsigned gridOverride = 0;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--reps" && a + 1 < argc)
      reps = std::atoi(argv[++a]);
    else if (arg == "--grid" && a + 1 < argc)
      gridOverride = static_cast<unsigned>(std::atoi(argv[++a]));
    else
      usage(argv[0]);
  }
  if (reps < kMinReps) {
    std::fprintf(stderr, "--reps must be at least %d\n", kMinReps);
    return 2;
  }

  int dev = 0;
  CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  const unsigned numSMs = static_cast<unsigned>(prop.multiProcessorCount);
  const unsigned block = kBlock;
  const unsigned grid =
      gridOverride ? gridOverride : 2 * numSMs * (2048 / block);
  std::fprintf(stderr, "# device: %s, %u SMs, cc %d.%d\n", prop.name, numSMs,
               prop.major, prop.minor);
  std::fprintf(
      stderr, "# block = %u, grid = %u (rule: 2 * numSMs * (2048 / block)%s)\n",
      block, grid, gridOverride ? ", overridden by --grid" : "");
  std::fprintf(stderr, "# warm-ups = %d, reps = %d\n", kWarmups, reps);

  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");

  const unsigned sizes[] = {1u << 27, (1u << 27) + 172};
  const unsigned maxN = *std::max_element(std::begin(sizes), std::end(sizes));

  // Fixed input, small values.
  std::vector<int> host(maxN);
  for (unsigned i = 0; i < maxN; ++i)
    host[i] = static_cast<int>(i % 7) - 3;

  // Two copies of the input, used in turn, so that no launch finds the
  // previous one's data in L2.
  int *dIns[2] = {nullptr, nullptr};
  int *dCopy = nullptr, *dPartial = nullptr, *dSum = nullptr;
  for (int *&d : dIns) {
    CUDA_CHECK(cudaMalloc(&d, size_t(maxN) * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, host.data(), size_t(maxN) * sizeof(int),
                          cudaMemcpyHostToDevice));
  }
  unsigned turn = 0;
  auto nextIn = [&] { return dIns[turn++ & 1]; };
  int *dIn = dIns[0];
  CUDA_CHECK(cudaMalloc(&dCopy, size_t(maxN) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dPartial, size_t(grid) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dSum, sizeof(int)));

  // CUB temporary storage, allocated once (for the largest n) outside timing.
  void *dTemp = nullptr;
  size_t tempBytes = 0;
  for (unsigned n : sizes) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, dIn, dSum, n));
    tempBytes = std::max(tempBytes, bytes);
  }
  CUDA_CHECK(cudaMalloc(&dTemp, tempBytes));

  std::vector<int> partial(grid);
  std::vector<int> copied;

  for (unsigned n : sizes) {
    long long expected = 0;
    for (unsigned i = 0; i < n; ++i)
      expected += host[i];
    std::fprintf(stderr, "# n = %u, nIsPow2 = %d, expected sum = %lld\n", n,
                 int(isPow2(n)), expected);
    const double inBytes = double(n) * sizeof(int);

    // copy: device-to-device memcpy of the n-int input.
    {
      CUDA_CHECK(cudaMemset(dCopy, 0xff, size_t(n) * sizeof(int)));
      auto launch = [&] {
        CUDA_CHECK(cudaMemcpyAsync(dCopy, nextIn(), size_t(n) * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
      };
      auto check = [&] {
        copied.resize(n);
        CUDA_CHECK(cudaMemcpy(copied.data(), dCopy, size_t(n) * sizeof(int),
                              cudaMemcpyDeviceToHost));
        if (std::memcmp(copied.data(), host.data(), size_t(n) * sizeof(int)))
          fail("copy", n, "copied data differs from the input");
      };
      printRow("copy", "memcpy-dtod", n, 0, 0, measure(reps, launch, check),
               2.0 * inBytes);
    }

    // Sums the per-block partials on the host and compares.
    auto checkPartials = [&](const char *variant) {
      CUDA_CHECK(cudaMemcpy(partial.data(), dPartial,
                            size_t(grid) * sizeof(int),
                            cudaMemcpyDeviceToHost));
      long long got = 0;
      for (unsigned b = 0; b < grid; ++b)
        got += partial[b];
      if (got != expected) {
        char msg[128];
        std::snprintf(msg, sizeof msg, "sum %lld; expected %lld", got,
                      expected);
        fail(variant, n, msg);
      }
    };

    // nvcc-template
    {
      static_assert(kBlock == 256, "instantiations below assume block 256");
      const bool pow2 = isPow2(n);
      auto launch = [&] {
        if (pow2)
          reduceTemplate<kBlock, true><<<grid, kBlock>>>(nextIn(), dPartial, n);
        else
          reduceTemplate<kBlock, false><<<grid, kBlock>>>(nextIn(), dPartial,
                                                          n);
      };
      CUDA_CHECK(cudaMemset(dPartial, 0x7f, size_t(grid) * sizeof(int)));
      auto check = [&] { checkPartials("nvcc-template"); };
      printRow("reduce", "nvcc-template", n, block, grid,
               measure(reps, launch, check), inBytes);
    }

    // nvcc-runtime
    {
      const bool pow2 = isPow2(n);
      auto launch = [&] {
        reduceRuntime<<<grid, block, block * sizeof(int)>>>(
            nextIn(), dPartial, n, block, pow2);
      };
      CUDA_CHECK(cudaMemset(dPartial, 0x7f, size_t(grid) * sizeof(int)));
      auto check = [&] { checkPartials("nvcc-runtime"); };
      printRow("reduce", "nvcc-runtime", n, block, grid,
               measure(reps, launch, check), inBytes);
    }

    // cub: full sum.
    {
      auto launch = [&] {
        size_t bytes = tempBytes;
        CUDA_CHECK(cub::DeviceReduce::Sum(dTemp, bytes, nextIn(), dSum, n));
      };
      CUDA_CHECK(cudaMemset(dSum, 0x7f, sizeof(int)));
      auto check = [&] {
        int got = 0;
        CUDA_CHECK(cudaMemcpy(&got, dSum, sizeof(int), cudaMemcpyDeviceToHost));
        if (got != expected) {
          char msg[128];
          std::snprintf(msg, sizeof msg, "sum %d; expected %lld", got,
                        expected);
          fail("cub", n, msg);
        }
      };
      printRow("reduce", "cub", n, 0, 0, measure(reps, launch, check), inBytes);
    }
  }

  CUDA_CHECK(cudaFree(dTemp));
  CUDA_CHECK(cudaFree(dSum));
  CUDA_CHECK(cudaFree(dPartial));
  CUDA_CHECK(cudaFree(dCopy));
  for (int *d : dIns)
    CUDA_CHECK(cudaFree(d));
  return 0;
}
