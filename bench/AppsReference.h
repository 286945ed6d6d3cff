//===- AppsReference.h - issue 34's three application ports, both sides ---===//
//
// What the nvcc baselines (bench/cuda/{walk,xs,micro}_baseline.cu) and the
// mstage ports (bench/mstage_{walk,xs,micro}.cpp, test/gpu/apps.cpp) share:
// sizes, inputs, the per-thread physics (APPS_HD functions, compiled by nvcc
// as __host__ __device__, by mstage++ as device code of the kernel, and by the
// host compiler for the CPU reference), the CPU references and the checks.
// Plain C++17 otherwise, as PortsReference.h.
//
//   walk   a Feynman-Kac solver: from each point of a grid inside an ellipse,
//          Brownian walks (Box-Muller steps from a per-thread PCG32) until
//          they leave it, scoring the boundary value weighted by exp(-int V);
//          float atomics into per-point sums, a 64-bit atomic step counter
//   xs     cross-section lookups: per event, a random energy and material;
//          for each nuclide of the material a binary search in its energy
//          grid and an interpolation of five cross sections (many table
//          reads); a block reduction of each event's largest channel into a
//          64-bit counter
//   micro  a one-moment bulk microphysics step per column (vapour, cloud,
//          rain, ice, snow): saturation adjustment, warm-rain and ice
//          processes with many branches, then rain and snow sedimentation
//          in CFL-limited sub-steps; reads the state, writes the new one
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_BENCH_APPSREFERENCE_H
#define MSTAGE_BENCH_APPSREFERENCE_H

#include "PortsReference.h"

#include <math.h>

#ifdef __CUDACC__
#define APPS_HD __host__ __device__ inline
#else
#define APPS_HD inline
#endif

namespace ports {

// Events around a loop of launches: each of kAppTrials loops times --reps
// launches; the rows give the median and the minimum of the per-launch time.
constexpr int kAppTrials = 5;
constexpr unsigned kAppBlock = 256;

// Launches after the check launch: warm-ups and every timed one, on both
// sides (the accumulating kernels are checked against this many).
inline unsigned appLaunches(int Reps) {
  return unsigned(kPortWarmups + kAppTrials * Reps);
}

// PCG32 (O'Neill's XSH-RR output on a 64-bit LCG): a thread's random stream.
struct Pcg32 {
  std::uint64_t State, Inc;
  APPS_HD Pcg32(std::uint64_t Seed, std::uint64_t Stream)
      : State(0), Inc((Stream << 1) | 1) {
    next();
    State += Seed;
    next();
  }
  APPS_HD std::uint32_t next() {
    std::uint64_t Old = State;
    State = Old * 6364136223846793005ull + Inc;
    std::uint32_t X = std::uint32_t(((Old >> 18) ^ Old) >> 27);
    std::uint32_t Rot = std::uint32_t(Old >> 59);
    return (X >> Rot) | (X << ((32 - Rot) & 31));
  }
  // Uniform in (0, 1]: never 0, so log() of it is finite.
  APPS_HD float uniform() { return float((next() >> 8) + 1) * 0x1p-24f; }
};

// Relative difference, judged at Scale where the values are near zero.
inline double relDiff(double Got, double Ref, double Scale) {
  double Den = std::max(std::fabs(Ref), Scale);
  return Den > 0 ? std::fabs(Got - Ref) / Den : std::fabs(Got - Ref);
}

// ---- walk ----------------------------------------------------------------

constexpr std::size_t kWalkNx = 256; // points across; Ny = Nx / 2
constexpr unsigned kWalkChunks = 4;  // threads per point
constexpr int kWalkWalks = 4;        // walks per thread

struct WalkParams {
  float A, B;   // the ellipse's half axes
  float H;      // the time step
  int Walks;    // walks per thread
  int MaxSteps; // a walk that has not left by then scores where it is
  unsigned Nx, Ny;
  unsigned Chunks; // threads per point
};

inline WalkParams walkParams(std::size_t Nx) {
  return {2.0f, 1.0f,         0.004f,           kWalkWalks,
          4000, unsigned(Nx), unsigned(Nx / 2), kWalkChunks};
}

inline unsigned walkThreads(const WalkParams &P) {
  return P.Nx * P.Ny * P.Chunks;
}

// The potential and the boundary values: u solves u_t = Lap(u)/2 - V u.
APPS_HD float walkPotential(float X, float Y) {
  return 0.5f * (X * X + 0.25f * Y * Y);
}
APPS_HD float walkBoundary(float X, float Y) {
  return 1.0f + 0.5f * X * Y + 0.25f * X;
}

struct WalkResult {
  float Sum, SumSq;
  unsigned Steps;
};

// The walks of thread Chunk of point Point; nothing for a point outside.
APPS_HD WalkResult walkThread(const WalkParams &P, unsigned Point,
                              unsigned Chunk) {
  WalkResult R = {0.0f, 0.0f, 0u};
  const unsigned Ix = Point % P.Nx, Iy = Point / P.Nx;
  const float X0 = -P.A + (float(Ix) + 0.5f) * (2.0f * P.A / float(P.Nx));
  const float Y0 = -P.B + (float(Iy) + 0.5f) * (2.0f * P.B / float(P.Ny));
  const float InvA2 = 1.0f / (P.A * P.A), InvB2 = 1.0f / (P.B * P.B);
  if (X0 * X0 * InvA2 + Y0 * Y0 * InvB2 >= 1.0f)
    return R;
  Pcg32 Rng(Point, Chunk);
  const float RootH = sqrtf(P.H);
  for (int W = 0; W < P.Walks; ++W) {
    float X = X0, Y = Y0, Vint = 0.0f, Chk;
    int S = 0;
    do {
      float Radius = RootH * sqrtf(-2.0f * logf(Rng.uniform()));
      float Theta = 6.28318531f * Rng.uniform();
      Vint += walkPotential(X, Y) * P.H;
      X += Radius * cosf(Theta);
      Y += Radius * sinf(Theta);
      ++S;
      Chk = X * X * InvA2 + Y * Y * InvB2;
    } while (Chk < 1.0f && S < P.MaxSteps);
    float Score = walkBoundary(X, Y) * expf(-Vint);
    R.Sum += Score;
    R.SumSq += Score * Score;
    R.Steps += unsigned(S);
  }
  return R;
}

struct WalkTotals {
  std::vector<float> Sum, SumSq;
  unsigned long long Steps = 0;
};

inline WalkTotals walkCpu(const WalkParams &P) {
  WalkTotals T;
  const unsigned Points = P.Nx * P.Ny;
  T.Sum.assign(Points, 0.0f);
  T.SumSq.assign(Points, 0.0f);
  for (unsigned G = 0; G < walkThreads(P); ++G) {
    WalkResult R = walkThread(P, G % Points, G / Points);
    T.Sum[G % Points] += R.Sum;
    T.SumSq[G % Points] += R.SumSq;
    T.Steps += R.Steps;
  }
  return T;
}

// The sums after Launches launches (they accumulate) against the CPU's one.
// A walk whose exit step differs by a rounding (fma contraction on the GPU)
// changes its thread's later walks: up to 1% of the points may differ by
// more than 1e-4, the total of the means by no more than 1e-3, the steps
// by 0.1%.
inline void walkCheck(const WalkTotals &Ref, unsigned Launches,
                      const std::vector<float> &Sum,
                      const std::vector<unsigned long long> &Steps,
                      const std::string &Variant) {
  std::size_t Off = 0;
  double Total = 0, RefTotal = 0;
  for (std::size_t I = 0; I < Ref.Sum.size(); ++I) {
    double R = double(Ref.Sum[I]) * Launches, G = Sum[I];
    if (!(relDiff(G, R, 1.0) <= 1e-4))
      ++Off;
    Total += G;
    RefTotal += R;
  }
  double RefSteps = double(Ref.Steps) * Launches;
  if (Off > Ref.Sum.size() / 100 || !(relDiff(Total, RefTotal, 1.0) <= 1e-3) ||
      !(relDiff(double(Steps[0]), RefSteps, 1.0) <= 1e-3))
    fail("walk " + Variant + ": " + std::to_string(Off) +
         " points differ, total " + decimal(Total) + " expected " +
         decimal(RefTotal) + ", steps " + std::to_string(Steps[0]) +
         " expected " + decimal(RefSteps));
}

// ---- xs ------------------------------------------------------------------

constexpr std::size_t kXsLookups = std::size_t(1) << 20;
constexpr unsigned kXsNuclides = 68;
constexpr unsigned kXsGrid = 8192; // energies per nuclide
constexpr unsigned kXsChannels = 5;
constexpr unsigned kXsMaterials = 12;
constexpr unsigned kXsMaxPerMaterial = 32;
constexpr unsigned kXsPerMaterial[kXsMaterials] = {32, 5,  4,  4,  20, 16,
                                                   16, 16, 16, 16, 8,  8};

// The xs programs' options: --grid G (energies per nuclide), then the
// common ones.
inline Options parseXsOptions(int Argc, char **Argv, const char *Usage,
                              unsigned &Grid) {
  Grid = kXsGrid;
  std::vector<char *> Args;
  for (int I = 0; I < Argc; ++I) {
    if (I + 1 < Argc && !std::strcmp(Argv[I], "--grid"))
      Grid = unsigned(std::strtoul(Argv[++I], nullptr, 0));
    else
      Args.push_back(Argv[I]);
  }
  Options O = parseOptions(int(Args.size()), Args.data(), Usage);
  if (Grid < 2 || Grid > (1u << 20))
    fail("xs: the grid must have 2 to 2^20 energies");
  return O;
}

struct XsTables {
  std::vector<float> Energy; // [nuclide][grid], ascending in (0, 1)
  std::vector<float> Xs;     // [nuclide][grid][channel]
  std::vector<int> Count;    // nuclides per material
  std::vector<int> Nuclide;  // [material][kXsMaxPerMaterial]
  std::vector<float> Conc;   // [material][kXsMaxPerMaterial]
};

inline XsTables xsTables(unsigned Grid) {
  XsTables T;
  T.Energy.resize(std::size_t(kXsNuclides) * Grid);
  T.Xs.resize(T.Energy.size() * kXsChannels);
  for (unsigned N = 0; N < kXsNuclides; ++N) {
    // Ascending: a running sum of positive steps, scaled into (0, 1).
    std::vector<double> E(Grid);
    double Acc = 0;
    for (unsigned G = 0; G < Grid; ++G)
      E[G] = Acc += 1.0 + double(mix(N * 1000003ull + G) % 1000);
    for (unsigned G = 0; G < Grid; ++G)
      T.Energy[std::size_t(N) * Grid + G] = float(E[G] / (Acc + 1.0));
    for (unsigned I = 0; I < Grid * kXsChannels; ++I)
      T.Xs[std::size_t(N) * Grid * kXsChannels + I] =
          float(mix(0x5eedull << 32 | (N * 7919ull * Grid + I)) % 100000) *
          1e-3f;
  }
  T.Count.assign(kXsPerMaterial, kXsPerMaterial + kXsMaterials);
  T.Nuclide.assign(kXsMaterials * kXsMaxPerMaterial, 0);
  T.Conc.assign(kXsMaterials * kXsMaxPerMaterial, 0.0f);
  for (unsigned M = 0; M < kXsMaterials; ++M)
    for (unsigned J = 0; J < kXsPerMaterial[M]; ++J) {
      unsigned K = M * kXsMaxPerMaterial + J;
      T.Nuclide[K] = int(mix(77ull << 40 | K) % kXsNuclides);
      T.Conc[K] = 0.01f + float(mix(99ull << 40 | K) % 1000) * 1e-3f;
    }
  return T;
}

// Lookup I's energy and material (the fuel, material 0, half the time).
APPS_HD void xsEvent(std::uint64_t I, float &E, int &Material) {
  Pcg32 Rng(I, 0x3c5);
  E = Rng.uniform();
  float U = Rng.uniform();
  Material = U < 0.5f ? 0 : 1 + int((U - 0.5f) * 22.0f) % 11;
}

// The largest grid index whose energy is at most E (0 below the grid).
APPS_HD int xsSearch(const float *Energy, int Grid, float E) {
  int Lo = 0, Hi = Grid - 1;
  while (Hi - Lo > 1) {
    int Mid = Lo + (Hi - Lo) / 2;
    if (Energy[Mid] > E)
      Hi = Mid;
    else
      Lo = Mid;
  }
  return Lo;
}

// One lookup: the material's macroscopic cross sections; returns the total
// and sets Largest to the channel with the largest one (1..5).
APPS_HD float xsLookup(const float *Energy, const float *Xs, const int *Count,
                       const int *Nuclide, const float *Conc, int Grid,
                       int PerMaterial, std::uint64_t I, unsigned &Largest) {
  float E;
  int M;
  xsEvent(I, E, M);
  float Macro[kXsChannels] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  const int N = Count[M];
  for (int J = 0; J < N; ++J) {
    const int Nuc = Nuclide[M * PerMaterial + J];
    const float C = Conc[M * PerMaterial + J];
    const float *En = Energy + std::size_t(Nuc) * Grid;
    int G = xsSearch(En, Grid, E);
    float Lo = En[G], Hi = En[G + 1];
    float F = (Hi - E) / (Hi - Lo);
    const float *X = Xs + (std::size_t(Nuc) * Grid + G) * kXsChannels;
    for (unsigned K = 0; K < kXsChannels; ++K)
      Macro[K] += C * (X[K + kXsChannels] - F * (X[K + kXsChannels] - X[K]));
  }
  float Total = 0.0f, Max = -1.0f;
  Largest = 0;
  for (unsigned K = 0; K < kXsChannels; ++K) {
    Total += Macro[K];
    if (Macro[K] > Max) {
      Max = Macro[K];
      Largest = K + 1;
    }
  }
  return Total;
}

struct XsResult {
  std::vector<float> Total;
  unsigned long long Hash = 0; // the sum of the largest channels
};

inline XsResult xsCpu(const XsTables &T, unsigned Grid, std::size_t Lookups) {
  XsResult R;
  R.Total.resize(Lookups);
  for (std::size_t I = 0; I < Lookups; ++I) {
    unsigned L;
    R.Total[I] =
        xsLookup(T.Energy.data(), T.Xs.data(), T.Count.data(), T.Nuclide.data(),
                 T.Conc.data(), int(Grid), int(kXsMaxPerMaterial), I, L);
    R.Hash += L;
  }
  return R;
}

// Each total within 1e-5 relative; the hash Launches times the CPU's, give
// or take a channel that contraction changed (1 in 10^5 lookups).
inline void xsCheck(const XsResult &Ref, unsigned Launches,
                    const std::vector<float> &Total,
                    const std::vector<unsigned long long> &Hash,
                    const std::string &Variant) {
  for (std::size_t I = 0; I < Ref.Total.size(); ++I)
    if (!(relDiff(Total[I], Ref.Total[I], 1e-3) <= 1e-5))
      fail("xs " + Variant + ": lookup " + std::to_string(I) + " total " +
           decimal(Total[I]) + ", expected " + decimal(Ref.Total[I]));
  double Want = double(Ref.Hash) * Launches;
  double Slack = 4.0 * Launches * (1.0 + double(Ref.Total.size()) / 1e5);
  if (!(std::fabs(double(Hash[0]) - Want) <= Slack))
    fail("xs " + Variant + ": hash " + std::to_string(Hash[0]) + ", expected " +
         decimal(Want));
}

// ---- micro ---------------------------------------------------------------

constexpr std::size_t kMicroColumns = std::size_t(1) << 17;
constexpr int kMicroLevels = 40;
constexpr int kMicroFields = 6; // t, qv, qc, qr, qi, qs

struct MicroParams {
  float Dt;   // s
  int Levels; // per column
  unsigned Columns;
  float Qc0, Qi0;   // autoconversion thresholds, kg/kg
  float AutoRate;   // cloud to rain, 1/s
  float AccrRate;   // rain collecting cloud
  float MaxCourant; // per sedimentation sub-step
  int MaxSubsteps;
};

inline MicroParams microParams(std::size_t Columns) {
  return {20.0f,   kMicroLevels, unsigned(Columns),
          1.0e-3f, 1.0e-4f,      1.0e-3f,
          2.2f,    0.9f,         8};
}

// Field F of level K of column C: levels are rows, so that a warp's
// threads (neighbouring columns) read neighbouring words.
APPS_HD std::size_t microAt(const MicroParams &P, int F, int K, unsigned C) {
  return (std::size_t(F) * P.Levels + K) * P.Columns + C;
}

// The inputs: a stable atmosphere with moist layers, cloud near 2-4 km and
// ice above the freezing level, varied per column.
struct MicroState {
  std::vector<float> Fields;        // kMicroFields x Levels x Columns
  std::vector<float> Pres, Rho, Dz; // Levels x Columns
};

inline MicroState microInputs(const MicroParams &P) {
  MicroState S;
  const std::size_t Cells = std::size_t(P.Levels) * P.Columns;
  S.Fields.resize(kMicroFields * Cells);
  S.Pres.resize(Cells);
  S.Rho.resize(Cells);
  S.Dz.resize(Cells);
  for (int K = 0; K < P.Levels; ++K)
    for (unsigned C = 0; C < P.Columns; ++C) {
      std::size_t I = std::size_t(K) * P.Columns + C;
      double U = double(mix(I) % 10000) * 1e-4;
      double Z = 250.0 * K + 125.0;
      double T = 295.0 - 0.0065 * Z + 2.0 * U;
      double Pr = 101325.0 * std::exp(-Z / 8000.0);
      S.Pres[I] = float(Pr);
      S.Rho[I] = float(Pr / (287.0 * T));
      S.Dz[I] =
          float(250.0 * (0.9 + 0.2 * (double(mix(I + Cells) % 100) / 100)));
      double Moist = std::exp(-Z / 3000.0) * (0.7 + 0.5 * U);
      S.Fields[microAt(P, 0, K, C)] = float(T);
      S.Fields[microAt(P, 1, K, C)] = float(0.016 * Moist);
      S.Fields[microAt(P, 2, K, C)] =
          float(Z > 1500 && Z < 4500 ? 1.5e-3 * U : 0.0);
      S.Fields[microAt(P, 3, K, C)] = float(Z < 5000 ? 8e-4 * U * U : 0.0);
      S.Fields[microAt(P, 4, K, C)] = float(T < 268 ? 2e-4 * U : 0.0);
      S.Fields[microAt(P, 5, K, C)] = float(T < 275 ? 5e-4 * (1 - U) : 0.0);
    }
  return S;
}

// Thermodynamic constants (SI).
constexpr float kCp = 1004.5f, kLv = 2.501e6f, kLs = 2.834e6f, kLf = 3.33e5f,
                kT0 = 273.15f, kRho0 = 1.225f;

// Saturation mixing ratios over water and ice (Tetens) and their
// temperature derivatives.
APPS_HD float microQsat(float T, float P, bool Ice, float &DqDt) {
  const float A = Ice ? 21.875f : 17.27f, B = Ice ? 7.66f : 35.86f;
  const float Es = 610.78f * expf(A * (T - kT0) / (T - B));
  const float Den = fmaxf(P - 0.378f * Es, 0.5f * P);
  const float Q = 0.622f * Es / Den;
  DqDt = Q * A * (kT0 - B) / ((T - B) * (T - B));
  return Q;
}

// The local processes of one cell; Qv..Qs and T change in place. Each
// transfer is bounded by what its source holds, so no mass is created.
APPS_HD void microCell(const MicroParams &P, float Pres, float Rho, float &T,
                       float &Qv, float &Qc, float &Qr, float &Qi, float &Qs) {
  const float Dt = P.Dt;
  float DqsDt, DqiDt;
  float Qsw = microQsat(T, Pres, false, DqsDt);
  // Saturation adjustment over water: one Newton step.
  if (Qv > Qsw || Qc > 0.0f) {
    float Cond = (Qv - Qsw) / (1.0f + kLv / kCp * DqsDt);
    Cond = fmaxf(Cond, -Qc);
    Qv -= Cond;
    Qc += Cond;
    T += kLv / kCp * Cond;
    Qsw = microQsat(T, Pres, false, DqsDt);
  }
  // Autoconversion (Kessler) and accretion of cloud by rain.
  if (Qc > P.Qc0) {
    float Auto = fminf(P.AutoRate * (Qc - P.Qc0) * Dt, Qc - P.Qc0);
    Qc -= Auto;
    Qr += Auto;
  }
  if (Qc > 0.0f && Qr > 1e-12f) {
    float Accr = fminf(P.AccrRate * Qc * powf(Qr, 0.875f) * Dt, Qc);
    Qc -= Accr;
    Qr += Accr;
  }
  // Rain evaporation below saturation, with ventilation.
  if (Qr > 1e-12f && Qv < Qsw) {
    float Crho = Rho * Qr;
    float Vent = 1.6f + 124.9f * powf(Crho, 0.2046f);
    float Evap = (1.0f - Qv / Qsw) * Vent * powf(Crho, 0.525f) /
                 (5.4e5f + 2.55e6f / (Pres * Qsw)) / Rho * Dt;
    Evap = fminf(fminf(Evap, Qr), Qsw - Qv);
    Qr -= Evap;
    Qv += Evap;
    T -= kLv / kCp * Evap;
  }
  if (T < kT0) {
    // Below freezing: homogeneous freezing of cloud under -40 C.
    if (T < kT0 - 40.0f && Qc > 0.0f) {
      Qi += Qc;
      T += kLf / kCp * Qc;
      Qc = 0.0f;
    }
    float Qsi = microQsat(T, Pres, true, DqiDt);
    // Ice nucleation (Cooper's number concentration, 1e-12 kg a crystal).
    if (Qv > Qsi && Qi < 1e-8f) {
      float Ni = fminf(0.005f * expf(0.304f * (kT0 - T)), 5e5f);
      float Nuc = fminf(Ni * 1e-12f / Rho, Qv - Qsi);
      Qi += Nuc;
      Qv -= Nuc;
      T += kLs / kCp * Nuc;
    }
    // Deposition or sublimation, relaxing towards ice saturation.
    if (Qi > 0.0f) {
      float Tau = 600.0f / (1.0f + 1e4f * Qi);
      float Dep =
          (Qv - Qsi) / (1.0f + kLs / kCp * DqiDt) * (1.0f - expf(-Dt / Tau));
      Dep = Dep < 0.0f ? fmaxf(Dep, -Qi) : fminf(Dep, Qv);
      Qi += Dep;
      Qv -= Dep;
      T += kLs / kCp * Dep;
    }
    // Bergeron-Findeisen: ice grows at the cloud water's expense.
    if (Qc > 0.0f && Qi > 0.0f) {
      float Berg =
          fminf(Qc, 1e-3f * sqrtf(Qi * Qc) * Dt * (1.0f + 0.05f * (kT0 - T)));
      Qc -= Berg;
      Qi += Berg;
      T += kLf / kCp * Berg;
    }
    // Ice to snow (temperature-dependent aggregation) and riming.
    if (Qi > P.Qi0) {
      float Agg = fminf(1e-3f * expf(0.025f * (T - kT0)) * (Qi - P.Qi0) * Dt,
                        Qi - P.Qi0);
      Qi -= Agg;
      Qs += Agg;
    }
    if (Qs > 1e-12f) {
      float Coll = powf(Rho * Qs, 0.8125f) * sqrtf(kRho0 / Rho) * Dt;
      float Rime = fminf(2.0f * Coll * Qc, Qc);
      float Aggi = fminf(0.1f * Coll * Qi * expf(0.025f * (T - kT0)), Qi);
      Qc -= Rime;
      Qi -= Aggi;
      Qs += Rime + Aggi;
      T += kLf / kCp * Rime;
    }
    // Rain freezes into snow (Bigg).
    if (Qr > 1e-12f && T < kT0 - 5.0f) {
      float Frz = fminf(2e-5f * (expf(0.66f * (kT0 - T)) - 1.0f) * Qr * Qr *
                            Rho * Dt * 1e3f,
                        Qr);
      Qr -= Frz;
      Qs += Frz;
      T += kLf / kCp * Frz;
    }
  } else {
    // Above freezing: cloud ice melts at once, snow at a rate set by the
    // warmth.
    if (Qi > 0.0f) {
      Qc += Qi;
      T -= kLf / kCp * Qi;
      Qi = 0.0f;
    }
    if (Qs > 0.0f) {
      float Melt =
          fminf(Qs, kCp / kLf * (T - kT0) * (1.0f - expf(-Dt / 300.0f)));
      Qs -= Melt;
      Qr += Melt;
      T -= kLf / kCp * Melt;
    }
  }
  // Snow sublimates below ice saturation, at any temperature.
  if (Qs > 1e-12f) {
    float Qsi = microQsat(T, Pres, true, DqiDt);
    if (Qv < Qsi) {
      float Sub = fminf((Qsi - Qv) * 1e-3f * Dt * powf(Rho * Qs, 0.65f) * 1e2f,
                        fminf(Qs, Qsi - Qv));
      Qs -= Sub;
      Qv += Sub;
      T -= kLs / kCp * Sub;
    }
  }
  Qv = fmaxf(Qv, 0.0f);
  Qc = fmaxf(Qc, 0.0f);
  Qr = fmaxf(Qr, 0.0f);
  Qi = fmaxf(Qi, 0.0f);
  Qs = fmaxf(Qs, 0.0f);
}

// Terminal fall speeds (m/s) of rain (Kessler) and snow.
APPS_HD float microRainSpeed(float Rho, float Qr) {
  return Qr > 1e-12f ? 36.34f * powf(Rho * Qr, 0.1364f) * sqrtf(kRho0 / Rho)
                     : 0.0f;
}
APPS_HD float microSnowSpeed(float Rho, float Qs) {
  return Qs > 1e-12f ? 1.5f * powf(Rho * Qs, 0.16f) * sqrtf(kRho0 / Rho) : 0.0f;
}

// Sedimentation of field F (3 rain, 5 snow) in the output
// state of column C, top down, in sub-steps that keep the Courant number
// under P.MaxCourant; returns what reached the ground (kg/m^2).
APPS_HD float microFall(const MicroParams &P, const float *Rho, const float *Dz,
                        float *Out, int F, unsigned C) {
  const bool Rain = F == 3;
  float MaxC = 0.0f;
  for (int K = 0; K < P.Levels; ++K) {
    std::size_t I = std::size_t(K) * P.Columns + C;
    float Q = Out[microAt(P, F, K, C)];
    float V = Rain ? microRainSpeed(Rho[I], Q) : microSnowSpeed(Rho[I], Q);
    MaxC = fmaxf(MaxC, V * P.Dt / Dz[I]);
  }
  if (MaxC <= 0.0f)
    return 0.0f;
  int Sub = int(ceilf(MaxC / P.MaxCourant));
  Sub = Sub < 1 ? 1 : (Sub > P.MaxSubsteps ? P.MaxSubsteps : Sub);
  const float Dts = P.Dt / float(Sub);
  float Ground = 0.0f;
  for (int S = 0; S < Sub; ++S) {
    float FluxIn = 0.0f; // from the level above, kg/m^2/s
    for (int K = P.Levels - 1; K >= 0; --K) {
      std::size_t I = std::size_t(K) * P.Columns + C;
      float &Q = Out[microAt(P, F, K, C)];
      float V = Rain ? microRainSpeed(Rho[I], Q) : microSnowSpeed(Rho[I], Q);
      float FluxOut = fminf(Rho[I] * Q * V, Rho[I] * Q * Dz[I] / Dts);
      Q = fmaxf(Q + (FluxIn - FluxOut) * Dts / (Rho[I] * Dz[I]), 0.0f);
      FluxIn = FluxOut;
    }
    Ground += FluxIn * Dts;
  }
  return Ground;
}

// One column's step: In's state to Out's, the precipitation to Precip
// (rain) and Precip + Columns (snow).
APPS_HD void microColumn(const MicroParams &P, const float *In,
                         const float *Pres, const float *Rho, const float *Dz,
                         float *Out, float *Precip, unsigned C) {
  for (int K = 0; K < P.Levels; ++K) {
    std::size_t I = std::size_t(K) * P.Columns + C;
    float T = In[microAt(P, 0, K, C)], Qv = In[microAt(P, 1, K, C)],
          Qc = In[microAt(P, 2, K, C)], Qr = In[microAt(P, 3, K, C)],
          Qi = In[microAt(P, 4, K, C)], Qs = In[microAt(P, 5, K, C)];
    microCell(P, Pres[I], Rho[I], T, Qv, Qc, Qr, Qi, Qs);
    Out[microAt(P, 0, K, C)] = T;
    Out[microAt(P, 1, K, C)] = Qv;
    Out[microAt(P, 2, K, C)] = Qc;
    Out[microAt(P, 3, K, C)] = Qr;
    Out[microAt(P, 4, K, C)] = Qi;
    Out[microAt(P, 5, K, C)] = Qs;
  }
  Precip[C] = microFall(P, Rho, Dz, Out, 3, C);
  Precip[P.Columns + C] = microFall(P, Rho, Dz, Out, 5, C);
}

inline void microCpu(const MicroParams &P, const MicroState &S,
                     std::vector<float> &Out, std::vector<float> &Precip) {
  Out.assign(S.Fields.size(), 0.0f);
  Precip.assign(2 * std::size_t(P.Columns), 0.0f);
  for (unsigned C = 0; C < P.Columns; ++C)
    microColumn(P, S.Fields.data(), S.Pres.data(), S.Rho.data(), S.Dz.data(),
                Out.data(), Precip.data(), C);
}

// Each output within 1e-4 of the CPU's, relative to its field's largest
// value; a threshold that a rounding tips (fma contraction; the sub-step
// count of a column's sedimentation) may move up to 0.1% of the values
// further, none by half its field's scale (an unwritten value, a NaN). The
// sum of the fields is the checksum.
inline double microCheck(const MicroParams &P, const std::vector<float> &Ref,
                         const std::vector<float> &RefPrecip,
                         const std::vector<float> &Got,
                         const std::vector<float> &GotPrecip,
                         const std::string &Variant) {
  const std::size_t Cells = std::size_t(P.Levels) * P.Columns;
  std::size_t Off = 0;
  double WorstDiff = 0, Sum = 0;
  auto field = [&](const float *R, const float *G, std::size_t N) {
    double Scale = 0;
    for (std::size_t I = 0; I < N; ++I)
      Scale = std::max(Scale, std::fabs(double(R[I])));
    for (std::size_t I = 0; I < N; ++I) {
      double D = std::fabs(double(G[I]) - R[I]) / (Scale > 0 ? Scale : 1);
      if (!(D <= 1e-4))
        ++Off;
      if (!(D <= WorstDiff))
        WorstDiff = D;
      Sum += G[I];
    }
  };
  for (int F = 0; F < kMicroFields; ++F)
    field(Ref.data() + F * Cells, Got.data() + F * Cells, Cells);
  field(RefPrecip.data(), GotPrecip.data(), P.Columns);
  field(RefPrecip.data() + P.Columns, GotPrecip.data() + P.Columns, P.Columns);
  if (Off > (Ref.size() + RefPrecip.size()) / 1000 || !(WorstDiff < 0.5))
    fail("micro " + Variant + ": " + std::to_string(Off) +
         " values differ by more than 1e-4 of their field's scale, the worst "
         "by " +
         decimal(WorstDiff));
  return Sum;
}

} // namespace ports

#endif
