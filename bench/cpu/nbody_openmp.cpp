// The OpenMP baseline of the CPU back end's n-body benchmark: one step of the
// paper's Listings 5 and 6 (examples/Listing5.h) as plain C++, the bodies of
// the outer loop spread over the cores with `omp parallel for`.
//
//   nbody_openmp [--reps N] [--warmup W] [--n N]...
//
// Same data layout (data_t: x, y, z and mass w, 16-byte aligned), same float
// math in the same order (Eps2, G, dt from Listing5.h, IEEE sqrt and
// division), same interaction order (j from 0 to n). Listing 6's tiling
// through shared memory is a GPU device: here every thread reads the bodies
// from the array, which fits in L2 at these sizes.
//
// Built by bench/cpu_nbody.sh with `clang++ -O2 -fopenmp` (Debian:
// libomp-22-dev). Each size is checked against examples/NbodyReference.h on
// 1000 spread bodies before its times count.
//
// stdout: CSV  benchmark,variant,n,block,grid,median_ms,min_ms,gbps
//         (block and grid 0; gbps: G interactions a second).
#include "NbodyReference.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

int Reps = 7, Warmup = 1;

// Listing 5's body for body I, against every body of Pos.
void step(const data_t *Pos, data_t *NPos, data_t *Vel, long N) {
  const float Eps2 = 0.00125f;
#pragma omp parallel for schedule(static)
  for (long I = 0; I < N; ++I) {
    data_t P = Pos[I];
    data_t A = {0.0f, 0.0f, 0.0f, 0.0f};
    data_t R = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long J = 0; J < N; ++J) {
      data_t E = Pos[J];
      R.x = P.x - E.x;
      R.y = P.y - E.y;
      R.z = P.z - E.z;
      R.w = 1.0f / std::sqrt(sq(R.x) + sq(R.y) + sq(R.z) + Eps2);
      A.w = G * E.w * cu(R.w);
      A.x += A.w * R.x;
      A.y += A.w * R.y;
      A.z += A.w * R.z;
    }
    data_t V = Vel[I];
    P.x += V.x * dt + A.x * 0.5f * sq(dt);
    P.y += V.y * dt + A.y * 0.5f * sq(dt);
    P.z += V.z * dt + A.z * 0.5f * sq(dt);
    V.x += A.x * dt;
    V.y += A.y * dt;
    V.z += A.z * dt;
    Vel[I] = V;
    NPos[I] = P;
  }
}

bool bench(long N) {
  std::vector<data_t> Pos, Vel, NPos(N);
  randomBodies(N, Pos, Vel);
  // Vel is updated in place: each timed step starts from the same copy, so
  // that every step does the same work and the check reads one step's result.
  std::vector<data_t> Vel0 = Vel;
  step(Pos.data(), NPos.data(), Vel.data(), N);
  size_t WorstAt;
  double Err = worstNbodyError(Pos, Vel0, NPos, Vel,
                               std::max<long>(1, N / 1000), WorstAt);
  if (!(Err < 1e-3)) {
    std::fprintf(stderr, "FAIL nbody openmp n=%ld body %zu: error %g\n", N,
                 WorstAt, Err);
    return false;
  }
  std::vector<double> Ms;
  for (int R = 0; R < Warmup + Reps; ++R) {
    Vel = Vel0;
    auto T0 = std::chrono::steady_clock::now();
    step(Pos.data(), NPos.data(), Vel.data(), N);
    double T = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - T0)
                   .count();
    if (R >= Warmup)
      Ms.push_back(T);
  }
  std::sort(Ms.begin(), Ms.end());
  double Median = Ms[Ms.size() / 2];
  std::printf("nbody-cpu,openmp,%ld,0,0,%.3f,%.3f,%.3f\n", N, Median,
              Ms.front(), double(N) * N / (Median * 1e6));
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<long> Sizes;
  for (int I = 1; I + 1 < Argc; I += 2) {
    if (!std::strcmp(Argv[I], "--reps"))
      Reps = std::max(1, std::atoi(Argv[I + 1]));
    else if (!std::strcmp(Argv[I], "--warmup"))
      Warmup = std::max(0, std::atoi(Argv[I + 1]));
    else if (!std::strcmp(Argv[I], "--n"))
      Sizes.push_back(std::strtol(Argv[I + 1], nullptr, 0));
  }
  if (Sizes.empty())
    Sizes = {1 << 12, 1 << 13, 1 << 14};
  std::fprintf(stderr, "# openmp: %d threads\n", omp_get_max_threads());
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
  for (long N : Sizes)
    if (!bench(N))
      return 1;
  return 0;
}
