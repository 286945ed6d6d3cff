// What both sides of issue 16's four ported benchmarks share, so that the
// nvcc baselines (bench/cuda/*_baseline.cu) and the mstage programs
// (bench/mstage_*.cpp) do the same work on the same data and are checked the
// same way: the sizes and launch shapes, the inputs, the CPU references and
// the checksums. Plain C++17: nvcc's host compiler and mstage++ both read it.
//
//   hotspot    Rodinia's 2-D thermal stencil with its pyramid: 16x16 blocks,
//              two iterations per launch (each block computes its 12x12
//              inner cells), temperature and power grids of N x N floats
//   transpose  the CUDA SDK's transpose suite on N x N floats, 32x32 tiles
//              with blocks of 32x8 threads: copy, naive, coalesced (through
//              a shared tile), no bank conflicts (the tile padded to 33)
//   scan       a work-efficient (Blelloch) exclusive scan of N ints: each
//              block of 512 threads scans 1024 elements in shared memory,
//              the block sums are scanned the same way, then added back
//   histogram  256 bins over N bytes read as uchar4: per-block bins in
//              shared memory merged into global, and global atomics only
#ifndef MSTAGE_BENCH_PORTSREFERENCE_H
#define MSTAGE_BENCH_PORTSREFERENCE_H

#include "Checksum.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ports {

// ---- common --------------------------------------------------------------

// The options of every port: --reps R (timed launches), --n N (the size;
// small ones are for the CPU back end).
struct Options {
  int Reps = 100;
  std::size_t N = 0; // 0: the program's default
};

inline Options parseOptions(int Argc, char **Argv, const char *Usage) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    if (I + 1 < Argc && !std::strcmp(Argv[I], "--reps"))
      O.Reps = std::atoi(Argv[++I]);
    else if (I + 1 < Argc && !std::strcmp(Argv[I], "--n"))
      O.N = std::strtoull(Argv[++I], nullptr, 0);
    else {
      std::fprintf(stderr, "usage: %s\n", Usage);
      std::exit(2);
    }
  }
  if (O.Reps < 1)
    O.Reps = 1;
  return O;
}

constexpr int kPortWarmups = 5; // as BenchTiming.cuh's kWarmups

[[noreturn]] inline void fail(const std::string &What) {
  std::fprintf(stderr, "FAIL %s\n", What.c_str());
  std::exit(1);
}

// A reproducible pseudo-random 32-bit value for index I (splitmix-style).
inline std::uint32_t mix(std::uint64_t I) {
  std::uint64_t Z = I + 0x9e3779b97f4a7c15ull;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return std::uint32_t((Z ^ (Z >> 31)) >> 32);
}

inline double median(std::vector<double> Ms) {
  std::sort(Ms.begin(), Ms.end());
  std::size_t K = Ms.size();
  return K % 2 ? Ms[K / 2] : 0.5 * (Ms[K / 2 - 1] + Ms[K / 2]);
}

inline double minimum(const std::vector<double> &Ms) {
  return *std::min_element(Ms.begin(), Ms.end());
}

// One CSV row of bench.csv: benchmark,variant,n,block,grid,median_ms,
// min_ms,gbps (GB/s from Bytes moved per launch).
inline void printRow(const char *Bench, const std::string &Variant,
                     std::size_t N, unsigned Block, unsigned Grid, double Med,
                     double Min, double Bytes) {
  std::printf("%s,%s,%zu,%u,%u,%.5f,%.5f,%.2f\n", Bench, Variant.c_str(), N,
              Block, Grid, Med, Min, Bytes / (Med * 1e6));
  std::fflush(stdout);
}

inline void printHeader() {
  std::printf("benchmark,variant,n,block,grid,median_ms,min_ms,gbps\n");
}

// ---- hotspot -------------------------------------------------------------

constexpr std::size_t kHotspotN = 8192;
constexpr int kHotspotBlock = 16;  // Rodinia's BLOCK_SIZE
constexpr int kHotspotPyramid = 2; // iterations per launch
constexpr int kHotspotCheckLaunches = 3;

// Rodinia's physical constants. The chip is sized so that a cell is as
// large as in Rodinia's 1024x1024 data set, which keeps the explicit scheme
// stable at any N (a 0.016 m chip of 8192^2 cells would diverge).
struct HotspotConstants {
  float StepDivCap, Rx1, Ry1, Rz1, Amb;
};

inline HotspotConstants hotspotConstants(std::size_t N) {
  const double TChip = 0.0005, KSi = 100, FactorChip = 0.5, SpecHeatSi = 1.75e6,
               MaxPd = 3.0e6, Precision = 0.001;
  const double Chip = 0.016 * double(N) / 1024.0;
  const double GridH = Chip / double(N), GridW = Chip / double(N);
  const double Cap = FactorChip * SpecHeatSi * TChip * GridW * GridH;
  const double Rx = GridW / (2.0 * KSi * TChip * GridH);
  const double Ry = GridH / (2.0 * KSi * TChip * GridW);
  const double Rz = TChip / (KSi * GridH * GridW);
  const double MaxSlope = MaxPd / (FactorChip * TChip * SpecHeatSi);
  const double Step = Precision / MaxSlope;
  return {float(Step / Cap), float(1.0 / Rx), float(1.0 / Ry), float(1.0 / Rz),
          80.0f};
}

inline void hotspotInputs(std::size_t N, std::vector<float> &Temp,
                          std::vector<float> &Power) {
  Temp.resize(N * N);
  Power.resize(N * N);
  for (std::size_t I = 0; I < N * N; ++I) {
    Temp[I] = 320.0f + float(mix(I) % 2500) * 0.01f;
    Power[I] = float(mix(I + N * N) % 1000) * 1e-5f;
  }
}

// Launch geometry: each block of 16x16 threads writes its inner
// (16 - 2 * pyramid)^2 cells.
inline unsigned hotspotGrid(std::size_t N) {
  unsigned Small = kHotspotBlock - 2 * kHotspotPyramid;
  return unsigned((N + Small - 1) / Small);
}

// One iteration on the CPU: neighbours outside the grid are the cell itself.
inline void hotspotStepCpu(std::size_t N, const HotspotConstants &C,
                           const std::vector<float> &Power,
                           const std::vector<float> &T,
                           std::vector<float> &Out) {
  for (std::size_t R = 0; R < N; ++R)
    for (std::size_t Col = 0; Col < N; ++Col) {
      std::size_t I = R * N + Col;
      float Tc = T[I];
      float No = T[(R > 0 ? R - 1 : R) * N + Col];
      float So = T[(R + 1 < N ? R + 1 : R) * N + Col];
      float We = T[R * N + (Col > 0 ? Col - 1 : Col)];
      float Ea = T[R * N + (Col + 1 < N ? Col + 1 : Col)];
      Out[I] = Tc + C.StepDivCap *
                        (Power[I] + (So + No - 2.0f * Tc) * C.Ry1 +
                         (Ea + We - 2.0f * Tc) * C.Rx1 + (C.Amb - Tc) * C.Rz1);
    }
}

// Compares a device field with the CPU's after Iterations iterations; the
// two may differ by contraction into fma, so the check is relative.
inline void hotspotCheck(std::size_t N, const std::vector<float> &Temp0,
                         const std::vector<float> &Power, int Iterations,
                         const std::vector<float> &Got, const char *Side) {
  HotspotConstants C = hotspotConstants(N);
  std::vector<float> A = Temp0, B(N * N);
  for (int It = 0; It < Iterations; ++It) {
    hotspotStepCpu(N, C, Power, A, B);
    A.swap(B);
  }
  std::size_t Wrong = 0, First = 0;
  for (std::size_t I = 0; I < N * N; ++I)
    if (!(std::fabs(Got[I] - A[I]) <= 1e-5f * std::fabs(A[I])) && !Wrong++)
      First = I;
  if (Wrong)
    fail(std::string("hotspot (") + Side + ") n=" + std::to_string(N) + ": " +
         std::to_string(Wrong) + " cells differ from the CPU, first at " +
         std::to_string(First) + ": " + std::to_string(Got[First]) +
         ", expected " + std::to_string(A[First]));
}

// ---- transpose -----------------------------------------------------------

constexpr std::size_t kTransposeN = 4096;
constexpr unsigned kTileDim = 32, kBlockRows = 8;

inline std::vector<float> transposeInput(std::size_t N) {
  std::vector<float> In(N * N);
  for (std::size_t I = 0; I < N * N; ++I)
    In[I] = float(I);
  return In;
}

// Copy must give In, the transposes In transposed: checked exactly.
inline void transposeCheck(std::size_t N, const std::vector<float> &In,
                           const std::vector<float> &Got, bool Transposed,
                           const std::string &What) {
  for (std::size_t Y = 0; Y < N; ++Y)
    for (std::size_t X = 0; X < N; ++X) {
      float E = Transposed ? In[X * N + Y] : In[Y * N + X];
      if (Got[Y * N + X] != E)
        fail("transpose " + What + " n=" + std::to_string(N) + " at (" +
             std::to_string(Y) + ", " + std::to_string(X) +
             "): " + std::to_string(Got[Y * N + X]) + ", expected " +
             std::to_string(E));
    }
}

// ---- scan ----------------------------------------------------------------

constexpr std::size_t kScanN = std::size_t(1) << 24;
constexpr unsigned kScanBlock = 512; // threads; each block scans 1024

inline std::vector<int> scanInput(std::size_t N) {
  std::vector<int> In(N);
  for (std::size_t I = 0; I < N; ++I)
    In[I] = int(mix(I) % 19) - 9;
  return In;
}

inline void scanCheck(const std::vector<int> &In, const std::vector<int> &Got,
                      const char *Side) {
  int Sum = 0;
  for (std::size_t I = 0; I < In.size(); ++I) {
    if (Got[I] != Sum)
      fail(std::string("scan (") + Side + ") n=" + std::to_string(In.size()) +
           " at " + std::to_string(I) + ": " + std::to_string(Got[I]) +
           ", expected " + std::to_string(Sum));
    Sum += In[I];
  }
}

// The element counts of each level: N, then one sum per 1024 elements,
// until a level fits in one block.
inline std::vector<std::size_t> scanLevels(std::size_t N) {
  std::vector<std::size_t> L{N};
  while (L.back() > 2 * kScanBlock)
    L.push_back((L.back() + 2 * kScanBlock - 1) / (2 * kScanBlock));
  return L;
}

// ---- histogram -----------------------------------------------------------

constexpr std::size_t kHistogramN = std::size_t(1) << 26; // bytes
constexpr unsigned kHistogramBins = 256, kHistogramBlock = 256;
constexpr unsigned kHistogramBlocksPerSm = 8;

inline std::vector<unsigned char> histogramInput(std::size_t N) {
  std::vector<unsigned char> In(N);
  for (std::size_t I = 0; I < N; I += 4) {
    std::uint32_t V = mix(I);
    std::memcpy(&In[I], &V, std::min<std::size_t>(4, N - I));
  }
  return In;
}

inline std::vector<unsigned>
histogramCpu(const std::vector<unsigned char> &In) {
  std::vector<unsigned> H(kHistogramBins, 0);
  for (unsigned char C : In)
    ++H[C];
  return H;
}

// Got must be Times the histogram of the input (the timed launches add to
// the same bins).
inline void histogramCheck(const std::vector<unsigned> &Ref, unsigned Times,
                           const std::vector<unsigned> &Got,
                           const std::string &What) {
  for (unsigned B = 0; B < kHistogramBins; ++B)
    if (Got[B] != Ref[B] * Times)
      fail("histogram " + What + " bin " + std::to_string(B) + ": " +
           std::to_string(Got[B]) + ", expected " +
           std::to_string(Ref[B] * Times));
}

// Issue 18's scan and sort input: N values of T from Salt (ints in
// [-500, 500), floats with fractions, unsigned keys over the whole range).
template <class T>
std::vector<T> scanSortInput(std::size_t N, unsigned Salt) {
  std::vector<T> V(N);
  for (std::size_t I = 0; I < N; ++I) {
    std::uint32_t X = mix(I * 4 + Salt);
    if constexpr (std::is_same_v<T, float>)
      V[I] = float(int(X)) * 0x1p-16f;
    else if constexpr (std::is_same_v<T, int>)
      V[I] = int(X % 1000) - 500;
    else
      V[I] = T(X);
  }
  return V;
}

} // namespace ports

#endif
