//===- AppsMstage.h - issue 34's application ports, mstage's kernels ------===//
//
// The kernels of bench/mstage_{walk,xs,micro}.cpp, which test/gpu/apps.cpp
// also runs at small sizes. Each takes the run-time values that its nvcc
// twin (bench/cuda/*_baseline.cu) takes as arguments and calls stage() on
// them through a policy (examples/StagePolicy.h): Staged folds them into
// the kernel, Unstaged leaves them run-time values as nvcc's are. The
// physics is AppsReference.h's, shared with nvcc and the CPU reference.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_BENCH_APPSMSTAGE_H
#define MSTAGE_BENCH_APPSMSTAGE_H

#include "AppsReference.h"
#include "PortsMstage.h"

namespace ports {

// walk: one thread per (point, chunk); its walks' scores are added to the
// point's sums and its steps to the counter, each by one atomic.
template <class Stage> auto walkKernel(Stage stage) {
  return [=](WalkParams ParamsArg, mstage::vector_view<float> Sum,
             mstage::vector_view<float> SumSq,
             mstage::vector_view<unsigned long long> Steps) {
    const WalkParams P = stage(ParamsArg);
    const unsigned Points = P.Nx * P.Ny;
    const unsigned G = mstage::Thread::get().global.x;
    if (G >= Points * P.Chunks)
      return;
    const WalkResult R = walkThread(P, G % Points, G / Points);
    if (R.Steps) {
      mstage::atomic_add(&Sum[G % Points], R.Sum);
      mstage::atomic_add(&SumSq[G % Points], R.SumSq);
      mstage::atomic_add(&Steps[0], (unsigned long long)R.Steps);
    }
  };
}

// xs: one lookup per thread, its total written, its largest channel summed
// over the block in shared memory and added to the counter by one atomic.
template <class Stage> auto xsKernel(Stage stage) {
  return [=](mstage::vector_view<const float> Energy,
             mstage::vector_view<const float> Xs,
             mstage::vector_view<const int> Count,
             mstage::vector_view<const int> Nuclide,
             mstage::vector_view<const float> Conc, int GridArg,
             int PerMaterialArg, unsigned long long LookupsArg,
             mstage::vector_view<float> Total,
             mstage::vector_view<unsigned long long> Hash) {
    const int Grid = stage(GridArg), PerMaterial = stage(PerMaterialArg);
    const unsigned long long Lookups = stage(LookupsArg);
    mstage::shared_array<unsigned, kAppBlock> Part;
    const mstage::Thread T = mstage::Thread::get();
    const mstage::Block B = mstage::Block::get();
    unsigned Largest = 0;
    if (T.global.x < Lookups)
      Total[T.global.x] =
          xsLookup(Energy.data(), Xs.data(), Count.data(), Nuclide.data(),
                   Conc.data(), Grid, PerMaterial, T.global.x, Largest);
    Part[T.index.x] = Largest;
    B.synchronize();
    for (unsigned S = kAppBlock / 2; S > 0; S /= 2) {
      if (T.index.x < S)
        Part[T.index.x] += Part[T.index.x + S];
      B.synchronize();
    }
    if (T.index.x == 0)
      mstage::atomic_add(&Hash[0], (unsigned long long)Part[0]);
  };
}

// micro: one thread per column.
template <class Stage> auto microKernel(Stage stage) {
  return
      [=](MicroParams ParamsArg, mstage::vector_view<const float> In,
          mstage::vector_view<const float> Pres,
          mstage::vector_view<const float> Rho,
          mstage::vector_view<const float> Dz, mstage::vector_view<float> Out,
          mstage::vector_view<float> Precip) {
        const MicroParams P = stage(ParamsArg);
        const unsigned C = mstage::Thread::get().global.x;
        if (C < P.Columns)
          microColumn(P, In.data(), Pres.data(), Rho.data(), Dz.data(),
                      Out.data(), Precip.data(), C);
      };
}

inline unsigned appGrid(std::size_t Threads) {
  return unsigned((Threads + kAppBlock - 1) / kAppBlock);
}

// The CUDA way: events on the kernel's stream around kAppTrials loops of
// Reps asynchronous launches, after kPortWarmups launches (the first of
// which waits for the background JIT, so that the timed launches run the
// specialized code); each figure is one loop's time per launch.
template <class F>
std::vector<double> timeLoops(int Reps, mstage::stream_ref S, F Launch) {
  for (int R = 0; R < kPortWarmups; ++R) {
    Launch();
    if (R == 0)
      mstage::jit_wait();
  }
  std::vector<double> Ms;
  for (int T = 0; T < kAppTrials; ++T) {
    mstage::event Start = S.record();
    for (int R = 0; R < Reps; ++R)
      Launch();
    mstage::event Stop = S.record();
    Stop.synchronize();
    Ms.push_back(double(mstage::elapsed_ms(Start, Stop)) / Reps);
  }
  return Ms;
}

// requireExecution, without the runtime's per-launch events (the loops
// are timed by their own).
inline bool appExecutes(const char *Program) {
  bool Runs = requireExecution(Program);
  mstage_rt_time_launches(0);
  return Runs;
}

} // namespace ports

#endif
