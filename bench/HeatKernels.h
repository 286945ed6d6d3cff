// mstage's kernels of the 2-D heat equation (bench/AsyncReference.h gives
// the sizes and the CPU reference; bench/cuda/async_baselines.cu nvcc's
// kernels): the interior from the old field into the new one, the boundary
// of the new one, and the largest change of a step (atomic max on the float
// bits, which order as unsigned integers do for values >= 0). Shared by
// bench/mstage_async.cpp (timed on the GPU, checked against the CPU) and
// bench/mstage_replay.cpp (the host's cost of the same loop). With the
// Staged policy (examples/StagePolicy.h) the kernels stage the edge N, as an
// mstage user would write them; Unstaged (the default) leaves it a run-time
// value, as nvcc's kernels have it.
#ifndef MSTAGE_BENCH_HEATKERNELS_H
#define MSTAGE_BENCH_HEATKERNELS_H

#include "AsyncReference.h"
#include "StagePolicy.h"

#include <mstage.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace asyncbench {

// {interior, boundary, residual} for an N x N field.
template <class Stage = Unstaged> auto heatKernels(std::size_t NArg) {
  using namespace mstage;
  const dim3 Grid(unsigned((NArg + kHeatBlockX - 1) / kHeatBlockX),
                  unsigned((NArg + kHeatBlockY - 1) / kHeatBlockY));
  const unsigned BoundaryGrid =
      unsigned((NArg + kHeatThreads - 1) / kHeatThreads);
  auto Interior = kernel(
      [NArg](const auto &uold, auto &unew) {
        const std::size_t N = Stage()(NArg);
        Thread T = Thread::get();
        std::size_t i = T.global.y, j = T.global.x; // row, column
        if (i >= 1 && i + 1 < N && j >= 1 && j + 1 < N)
          unew[i * N + j] =
              0.25f * (uold[(i - 1) * N + j] + uold[(i + 1) * N + j] +
                       uold[i * N + j + 1] + uold[i * N + j - 1]);
      },
      Grid, dim3(kHeatBlockX, kHeatBlockY));
  auto Boundary = kernel(
      [NArg](auto &u) {
        const std::size_t N = Stage()(NArg);
        std::size_t t = Thread::get().global.x;
        if (t >= N)
          return;
        u[t * N] = 1.0f;
        u[t * N + N - 1] = 0.0f;
        if (t > 0) {
          u[t] = 0.0f;
          u[(N - 1) * N + t] = 0.0f;
        }
      },
      BoundaryGrid, kHeatThreads);
  auto Residual = kernel(
      [](const auto &a, const auto &b, auto &result) {
        std::size_t cells = a.size();
        std::size_t stride =
            std::size_t(Grid::get().range.x) * Block::get().range.x;
        float m = 0.0f;
        for (std::size_t k = Thread::get().global.x; k < cells; k += stride)
          m = std::max(m, std::fabs(a[k] - b[k]));
        atomic_ref<unsigned>(result[0]).fetch_max(
            __builtin_bit_cast(unsigned, m));
      },
      heatResidualGrid(NArg), kHeatThreads);
  return std::make_tuple(Interior, Boundary, Residual);
}

} // namespace asyncbench

#endif
