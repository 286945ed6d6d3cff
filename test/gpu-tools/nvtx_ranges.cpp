//===- nvtx_ranges.cpp - Kernels inside and outside an NVTX range ---------===//
//
// Run by tools/gpu/check-tools.sh (section 3, NVTX and resources), not by
// the GPU suite. Launches a kernel "outside" on a grid of 3 blocks, then,
// inside mstage::nvtx_range("step"), a kernel "inside" on a grid of 7 blocks,
// so that `ncu --nvtx --nvtx-include "mstage@step/"` profiles the second
// alone (told apart by their grids). Prints `LINE inside <file>:<line>`, the
// line of the inside kernel's lambda (MSTAGE_STATS names the kernel by it),
// and PASS nvtx_ranges when both results match the host's.
//
//===----------------------------------------------------------------------===//
#include <mstage.hpp>

#include <cstdio>
#include <exception>
#include <vector>

constexpr unsigned Block = 128;

int main() {
  try {
    std::vector<float> X(7 * Block), Y(7 * Block);
    for (unsigned I = 0; I < X.size(); ++I)
      X[I] = float(I);
    auto Outside = mstage::kernel(
        [](const auto &X, auto &Y) {
          unsigned I = mstage::Thread::get().global.x;
          Y[I] = X[I] + 1.0f;
        },
        3, Block);
    Outside(X, Y);
    float A = 2.5f;
    int InsideLine = __LINE__ + 2;
    auto Inside = mstage::kernel(
        [A](const auto &X, auto &Y) {
          unsigned I = mstage::Thread::get().global.x;
          Y[I] = mstage::stage(A) * X[I] + Y[I];
        },
        7, Block);
    std::printf("LINE inside %s:%d\n", __FILE__, InsideLine);
    {
      mstage::nvtx_range Step("step");
      Inside(X, Y);
    }
    mstage::synchronize();
    for (unsigned I = 0; I < X.size(); ++I) {
      float Want = 2.5f * X[I] + (I < 3 * Block ? X[I] + 1.0f : 0.0f);
      if (Y[I] != Want) {
        std::printf("FAIL nvtx_ranges: y[%u] is %g, the host says %g\n", I,
                    double(Y[I]), double(Want));
        return 1;
      }
    }
  } catch (const std::exception &E) {
    std::printf("FAIL nvtx_ranges: %s\n", E.what());
    return 1;
  }
  std::printf("PASS nvtx_ranges\n");
  return 0;
}
