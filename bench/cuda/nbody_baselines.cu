// Hand-written CUDA baselines for the n-body benchmark (paper Listings 5, 6).
//
//   nbody_baselines [--reps N] [--n N]   (--n: one size only)
//
// One simulation step: positions in (pos), new positions (npos) and
// velocities (vel, updated in place) out. The interaction loop is Listing 6's
// tiled for_each: tiles of blockSize bodies through shared memory, then a
// tail loop over global memory when n % blockSize != 0.
//   eps2 = 0.00125f, G = 6.674e-3f, dt = 0.01f,
//   r.w = 1.0f / sqrtf(...)  -- IEEE sqrt and division (nvcc defaults, no
//                               --use_fast_math; nvcc's default FMA
//                               contraction is left on).
// Bodies are {x, y, z, w} structs of 4 floats aligned to 16 bytes (w = mass),
// the layout of float4.
//
// Variants, n = 2^10 ... 2^19, block = 256, grid = ceil(n / 256):
//   nvcc-template  blockSize a template parameter, n a kernel parameter.
//   nvcc-runtime   blockSize = blockDim.x and n kernel parameters.
//
// Check: one step against a CPU double-precision reference; all bodies for
// n <= 2^14, 1000 evenly spread bodies for larger n. Per body, the relative
// error |gpu - ref| / |ref| of the new position and of the new velocity
// (3-vector norms) must be at most 1e-3; otherwise FAIL and exit status 1.
//
// Timing: CUDA events around each launch, 5 warm-ups, median (and min) of
// --reps repetitions (default 100, at least 50). The inner loop reads only
// pos, which the kernel does not write, so every repetition does the same
// work.
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
//         gbps column = interactions per second in G: n*n / median / 1e9.
// stderr: '#' lines with the device and the checks.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "BenchTiming.cuh"

namespace {

constexpr unsigned kBlock = 256;
constexpr int kMinReps = 50;
constexpr int kFullCheckMaxN = 1 << 14;
constexpr int kSampleBodies = 1000;
constexpr double kRelTol = 1e-3;

constexpr float kEps2 = 0.00125f;
constexpr float kG = 6.674e-3f;
constexpr float kDt = 0.01f;

struct alignas(16) Body {
  float x, y, z, w;
};

} // namespace

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// Listing 6: iterate over all n bodies of v, in tiles of bSize bodies staged
// through shared memory sm (bSize elements), then a tail over global memory.
// All threads of the block must call it (barriers inside).
template <typename F>
__device__ __forceinline__ void forEachTiled(const Body *v, int n, Body *sm,
                                             int bSize, F func) {
  int tidx = threadIdx.x;
  int trips = n / bSize;
  for (int i = 0; i < trips; ++i) {
    sm[tidx] = v[i * bSize + tidx];
    __syncthreads();
    for (int j = 0; j < bSize; ++j)
      func(sm[j]);
    __syncthreads();
  }
  if (n % bSize != 0)
    for (int j = trips * bSize; j < n; ++j)
      func(v[j]);
}

// Listing 5: one step for the body of this thread.
__device__ __forceinline__ void
nbodyStep(const Body *pos, Body *npos, Body *vel, int n, Body *sm, int bSize) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  bool disabled = idx >= n;
  Body p = {0.0f, 0.0f, 0.0f, 0.0f};
  Body v = {0.0f, 0.0f, 0.0f, 0.0f};
  if (!disabled)
    p = pos[idx];
  Body a = {0.0f, 0.0f, 0.0f, 0.0f};
  Body r = {0.0f, 0.0f, 0.0f, 0.0f};
  forEachTiled(pos, n, sm, bSize, [&](const Body &elem) {
    r.x = p.x - elem.x;
    r.y = p.y - elem.y;
    r.z = p.z - elem.z;
    r.w = 1.0f / sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + kEps2);
    a.w = kG * elem.w * (r.w * r.w * r.w);
    a.x += a.w * r.x;
    a.y += a.w * r.y;
    a.z += a.w * r.z;
  });
  if (!disabled)
    v = vel[idx];
  p.x += v.x * kDt + a.x * 0.5f * (kDt * kDt);
  p.y += v.y * kDt + a.y * 0.5f * (kDt * kDt);
  p.z += v.z * kDt + a.z * 0.5f * (kDt * kDt);
  v.x += a.x * kDt;
  v.y += a.y * kDt;
  v.z += a.z * kDt;
  if (!disabled) {
    vel[idx] = v;
    npos[idx] = p;
  }
}

// blockSize known at compile time; must equal blockDim.x.
template <int blockSize>
__global__ void __launch_bounds__(blockSize)
    nbodyTemplate(const Body *pos, Body *npos, Body *vel, int n) {
  __shared__ Body sm[blockSize];
  nbodyStep(pos, npos, vel, n, sm, blockSize);
}

// blockSize = blockDim.x at run time; dynamic shared memory of blockDim.x
// bodies.
__global__ void nbodyRuntime(const Body *pos, Body *npos, Body *vel, int n) {
  extern __shared__ Body smDyn[];
  nbodyStep(pos, npos, vel, n, smDyn, blockDim.x);
}

namespace {

//===----------------------------------------------------------------------===//
// Host helpers
//===----------------------------------------------------------------------===//

// Fixed pseudo-random input (LCG), uniform in [0, 1).
struct Lcg {
  uint32_t state;
  float next() {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) * (1.0f / 16777216.0f);
  }
};

void makeInput(int n, std::vector<Body> &pos, std::vector<Body> &vel) {
  Lcg rng{12345u};
  pos.resize(n);
  vel.resize(n);
  for (Body &b : pos) {
    b.x = 2.0f * rng.next() - 1.0f;
    b.y = 2.0f * rng.next() - 1.0f;
    b.z = 2.0f * rng.next() - 1.0f;
    b.w = 0.5f + rng.next(); // mass
  }
  for (Body &b : vel) {
    b.x = 0.2f * rng.next() - 0.1f;
    b.y = 0.2f * rng.next() - 0.1f;
    b.z = 0.2f * rng.next() - 0.1f;
    b.w = 0.0f;
  }
}

struct Ref {
  int idx;
  double p[3], v[3];
};

// Double-precision reference step for body idx (same formulas as Listing 5).
Ref referenceStep(const std::vector<Body> &pos, const std::vector<Body> &vel,
                  int idx) {
  const double eps2 = kEps2, G = kG, dt = kDt;
  const Body &p = pos[idx];
  double ax = 0, ay = 0, az = 0;
  for (const Body &e : pos) {
    double rx = double(p.x) - e.x, ry = double(p.y) - e.y,
           rz = double(p.z) - e.z;
    double rw = 1.0 / std::sqrt(rx * rx + ry * ry + rz * rz + eps2);
    double aw = G * e.w * rw * rw * rw;
    ax += aw * rx;
    ay += aw * ry;
    az += aw * rz;
  }
  const Body &v = vel[idx];
  Ref r;
  r.idx = idx;
  r.p[0] = p.x + v.x * dt + ax * 0.5 * dt * dt;
  r.p[1] = p.y + v.y * dt + ay * 0.5 * dt * dt;
  r.p[2] = p.z + v.z * dt + az * 0.5 * dt * dt;
  r.v[0] = v.x + ax * dt;
  r.v[1] = v.y + ay * dt;
  r.v[2] = v.z + az * dt;
  return r;
}

std::vector<Ref> referenceSet(const std::vector<Body> &pos,
                              const std::vector<Body> &vel) {
  int n = static_cast<int>(pos.size());
  std::vector<int> idxs;
  if (n <= kFullCheckMaxN) {
    for (int i = 0; i < n; ++i)
      idxs.push_back(i);
  } else {
    for (int k = 0; k < kSampleBodies; ++k) // includes 0 and n - 1
      idxs.push_back(int((long long)k * (n - 1) / (kSampleBodies - 1)));
  }
  std::vector<Ref> refs(idxs.size());
  for (long k = 0; k < long(idxs.size()); ++k)
    refs[k] = referenceStep(pos, vel, idxs[k]);
  return refs;
}

double relError(const double ref[3], float x, float y, float z) {
  double dx = x - ref[0], dy = y - ref[1], dz = z - ref[2];
  double num = std::sqrt(dx * dx + dy * dy + dz * dz);
  double den = std::sqrt(ref[0] * ref[0] + ref[1] * ref[1] + ref[2] * ref[2]);
  return num / std::max(den, 1e-30);
}

// Compares one step's npos/vel against the references; exits on failure.
void checkStep(const char *variant, int n, const std::vector<Ref> &refs,
               const std::vector<Body> &npos, const std::vector<Body> &nvel) {
  double worst = 0.0;
  int worstIdx = -1;
  for (const Ref &r : refs) {
    const Body &p = npos[r.idx], &v = nvel[r.idx];
    double e =
        std::max(relError(r.p, p.x, p.y, p.z), relError(r.v, v.x, v.y, v.z));
    if (!(e <= worst)) { // also catches NaN
      worst = e;
      worstIdx = r.idx;
    }
    if (!(e <= kRelTol)) {
      std::printf("FAIL,%s,%d,body %d rel error %g\n", variant, n, r.idx, e);
      std::fflush(stdout);
      std::fprintf(stderr,
                   "FAIL: %s, n = %d, body %d: relative error %g > %g\n"
                   "  gpu pos (%g %g %g) ref (%g %g %g)\n"
                   "  gpu vel (%g %g %g) ref (%g %g %g)\n",
                   variant, n, r.idx, e, kRelTol, p.x, p.y, p.z, r.p[0], r.p[1],
                   r.p[2], v.x, v.y, v.z, r.v[0], r.v[1], r.v[2]);
      std::exit(1);
    }
  }
  std::fprintf(stderr,
               "# %s n = %d: %zu bodies checked, max rel error %.3g"
               " (body %d)\n",
               variant, n, refs.size(), worst, worstIdx);
}

Timing measure(int reps, const std::function<void()> &launch) {
  return timeLaunches(reps, launch, [] {});
}

void usage(const char *argv0) {
  std::fprintf(stderr, "usage: %s [--reps N] [--n N]\n", argv0);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 100;
  long onlyN = 0; // --n: one size only (for profiling)
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--reps" && a + 1 < argc)
      reps = std::atoi(argv[++a]);
    else if (arg == "--n" && a + 1 < argc)
      onlyN = std::strtol(argv[++a], nullptr, 0);
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
  std::fprintf(stderr, "# device: %s, %d SMs, cc %d.%d\n", prop.name,
               prop.multiProcessorCount, prop.major, prop.minor);
  std::fprintf(stderr,
               "# block = %u, grid = ceil(n / %u), warm-ups = %d, "
               "reps = %d\n",
               kBlock, kBlock, kWarmups, reps);

  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");

  for (int logN = 10; logN <= 19; ++logN) {
    const int n = 1 << logN;
    if (onlyN && n != onlyN)
      continue;
    const unsigned block = kBlock;
    const unsigned grid = (unsigned(n) + block - 1) / block;

    std::vector<Body> pos, vel;
    makeInput(n, pos, vel);
    std::vector<Ref> refs = referenceSet(pos, vel);

    const size_t bytes = size_t(n) * sizeof(Body);
    Body *dPos = nullptr, *dNpos = nullptr, *dVel = nullptr;
    CUDA_CHECK(cudaMalloc(&dPos, bytes));
    CUDA_CHECK(cudaMalloc(&dNpos, bytes));
    CUDA_CHECK(cudaMalloc(&dVel, bytes));
    CUDA_CHECK(cudaMemcpy(dPos, pos.data(), bytes, cudaMemcpyHostToDevice));

    std::vector<Body> npos(n), nvel(n);

    struct Variant {
      const char *name;
      std::function<void()> launch;
    };
    static_assert(kBlock == 256, "instantiation below assumes block 256");
    Variant variants[] = {
        {"nvcc-template",
         [&] { nbodyTemplate<kBlock><<<grid, block>>>(dPos, dNpos, dVel, n); }},
        {"nvcc-runtime",
         [&] {
           nbodyRuntime<<<grid, block, block * sizeof(Body)>>>(dPos, dNpos,
                                                               dVel, n);
         }},
    };

    for (const Variant &var : variants) {
      // Correctness: one step from the initial state.
      CUDA_CHECK(cudaMemcpy(dVel, vel.data(), bytes, cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemset(dNpos, 0xff, bytes)); // NaNs
      var.launch();
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      CUDA_CHECK(cudaMemcpy(npos.data(), dNpos, bytes, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(nvel.data(), dVel, bytes, cudaMemcpyDeviceToHost));
      checkStep(var.name, n, refs, npos, nvel);

      // Timing (vel keeps being updated in place; pos is read-only).
      Timing t = measure(reps, var.launch);
      double ginter = double(n) * double(n) / (t.medianMs * 1e-3) / 1e9;
      std::printf("nbody,%s,%d,%u,%u,%.6f,%.6f,%.3f\n", var.name, n, block,
                  grid, t.medianMs, t.minMs, ginter);
      std::fflush(stdout);
    }

    CUDA_CHECK(cudaFree(dVel));
    CUDA_CHECK(cudaFree(dNpos));
    CUDA_CHECK(cudaFree(dPos));
  }
  return 0;
}
