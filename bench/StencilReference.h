// Issue 33's large-stencil benchmark, the host side that mstage's program
// (bench/mstage_stencil.cpp) and nvcc's (bench/cuda/stencil_baseline.cu)
// share: the schedule, the initial fields, the CPU reference of one kernel
// launch and the checks.
//
// The application advances a field on two grids (a fine one of N^3 points
// and a coarse one of (N/2)^3, as nested weather and seismic grids do) for
// STEPS steps. A step applies the four generated kernels (StencilKernels.h)
// in turn on each grid: next = kernel_k(cur, prev), then the three buffers
// rotate. Interior points (radius kRadius from every face) get the kernel's
// point function, the others copy cur. So a run launches 4 kernels x 2 grid
// sizes: 8 specializations when the size and the time step are staged.
#ifndef MSTAGE_BENCH_STENCILREFERENCE_H
#define MSTAGE_BENCH_STENCILREFERENCE_H

#include "Checksum.h"
#include "StencilKernels.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace stencil {

constexpr int kDefaultN = 128;    // the fine grid's edge
constexpr int kDefaultSteps = 20; // of the application
constexpr unsigned kBlock = 128;
constexpr float kDt = 0.25f;
constexpr int kSamples = 4096; // points checked per launch on a GPU

struct Options {
  int N = kDefaultN;
  int Steps = kDefaultSteps;
  int Reps = 20;
  std::string Mode = "run"; // run | jit | kernels
};

inline Options parseOptions(int Argc, char **Argv, const char *Usage) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    if (I + 1 < Argc && !std::strcmp(Argv[I], "--n"))
      O.N = std::atoi(Argv[++I]);
    else if (I + 1 < Argc && !std::strcmp(Argv[I], "--steps"))
      O.Steps = std::atoi(Argv[++I]);
    else if (I + 1 < Argc && !std::strcmp(Argv[I], "--reps"))
      O.Reps = std::atoi(Argv[++I]);
    else if (I + 1 < Argc && !std::strcmp(Argv[I], "--mode"))
      O.Mode = Argv[++I];
    else {
      std::fprintf(stderr, "usage: %s\n", Usage);
      std::exit(2);
    }
  }
  if (O.N < 4 * kRadius || O.Steps < 1 || O.Reps < 1 ||
      (O.Mode != "run" && O.Mode != "jit" && O.Mode != "kernels")) {
    std::fprintf(stderr, "usage: %s (n >= %d)\n", Usage, 4 * kRadius);
    std::exit(2);
  }
  return O;
}

[[noreturn]] inline void fail(const std::string &What) {
  std::fprintf(stderr, "FAIL stencil: %s\n", What.c_str());
  std::exit(1);
}

// The two grids' edges: the fine one and the coarse one.
inline std::vector<int> gridSizes(int N) { return {N, N / 2}; }

inline size_t points(int N) { return size_t(N) * N * N; }

inline unsigned blocksFor(int N) {
  return unsigned((points(N) + kBlock - 1) / kBlock);
}

// Runs Fn and adds the ms it took to Into.
template <class F> void timed(double &Into, F &&Fn) {
  auto T0 = std::chrono::steady_clock::now();
  Fn();
  Into += std::chrono::duration<double, std::milli>(
              std::chrono::steady_clock::now() - T0)
              .count();
}

// The ms the process spent making initial fields (markProcess prints it).
inline double &fieldsMs() {
  static double Ms = 0;
  return Ms;
}

// A smooth field with some noise, in [-1, 1].
inline std::vector<float> initialField(int N, int Which) {
  std::vector<float> F;
  timed(fieldsMs(), [&] {
    F.resize(points(N));
    for (size_t I = 0; I < F.size(); ++I) {
      uint32_t H = uint32_t((I + 1) * 2654435761u) ^ uint32_t(Which * 40503u);
      float Noise = float(H % 1024) / 1024.0f - 0.5f;
      F[I] =
          0.5f * std::sin(0.05f * float(I % N) + float(Which)) + 0.5f * Noise;
    }
  });
  return F;
}

// Where a run's time goes, both sides alike: the waits for the GPU before
// each check's downloads, the downloads themselves (copies and host
// buffers), its checks on the CPU and its launch calls, summed
// (printPhases).
struct RunPhases {
  double WaitMs = 0, DownloadMs = 0, CheckMs = 0, LaunchMs = 0;
};
inline RunPhases &runPhases() {
  static RunPhases P;
  return P;
}
inline void printPhases(const char *Side, double RunMs) {
  const RunPhases &P = runPhases();
  std::fprintf(stderr,
               "phases,stencil,%s,run %.3f,waits %.3f,downloads %.3f,"
               "checks %.3f,launch calls %.3f,rest %.3f\n",
               Side, RunMs, P.WaitMs, P.DownloadMs, P.CheckMs, P.LaunchMs,
               RunMs - P.WaitMs - P.DownloadMs - P.CheckMs - P.LaunchMs);
}

// With STENCIL_T0_NS set (the CLOCK_MONOTONIC ns at which a wrapper started
// the process), prints the ms from then to each of the process's marks:
// main's start, the context made, the run's start and end, main's end. What
// is outside them (the loader and static constructors, the exit) is told
// apart this way.
inline void markProcess(const char *Side, const char *Mark, bool Last = false) {
  static std::string Line;
  const char *T0 = std::getenv("STENCIL_T0_NS");
  if (!T0 || !*T0)
    return;
  double Ms = (double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count()) -
               std::strtod(T0, nullptr)) /
              1e6;
  char Field[64];
  std::snprintf(Field, sizeof Field, ",%s %.3f", Mark, Ms);
  Line += Field;
  if (Last)
    std::fprintf(stderr, "marks,stencil,%s%s,fields %.3f\n", Side, Line.c_str(),
                 fieldsMs());
}

// Kernel K's value at point I of a grid of edge N, on the CPU.
inline float pointOnCpu(int K, int N, const float *U, const float *V, size_t I,
                        float Dt) {
  switch (K) {
  case 0:
    return valueAt<0>(U, V, long(I), N, Dt);
  case 1:
    return valueAt<1>(U, V, long(I), N, Dt);
  case 2:
    return valueAt<2>(U, V, long(I), N, Dt);
  default:
    return valueAt<3>(U, V, long(I), N, Dt);
  }
}

// Checks kernel K's output Got from U and V against the CPU: every point of
// a small grid, kSamples points (interior and boundary) of a large one.
// Floating-point contraction differs between compilers, so the bound is
// relative.
inline void checkLaunch(int K, int N, const std::vector<float> &U,
                        const std::vector<float> &V,
                        const std::vector<float> &Got, const char *Side) {
  size_t Total = points(N);
  size_t Count = Total <= size_t(kSamples) * 4 ? Total : size_t(kSamples);
  for (size_t S = 0; S < Count; ++S) {
    size_t I = Count == Total ? S : size_t(S * 2654435761ull % Total);
    float Want = pointOnCpu(K, N, U.data(), V.data(), I, kDt);
    if (!(std::fabs(Got[I] - Want) <= 1e-4f * (1.0f + std::fabs(Want))))
      fail(std::string(Side) + ": kernel " + std::to_string(K) + " n " +
           std::to_string(N) + " point " + std::to_string(I) + ": got " +
           std::to_string(Got[I]) + ", want " + std::to_string(Want));
  }
}

// The checksum of a final field: its sum (contraction may differ, so a
// decimal, not a hash).
inline std::string checksum(const std::vector<float> &F) {
  return ports::sumChecksum(F, 6);
}

} // namespace stencil

#endif
