//===- EvaluateStaged.cpp - A launch's staged values ----------------------===//
#include "launch/EvaluateStaged.h"
#include "core/KernelRegistry.h"
#include "inspect/TraceEvents.h"
#include "support/Elapsed.h"

#include <cassert>

namespace mstage::rt {

llvm::Error evaluateStaged(const LaunchRequest &L, bool Measure,
                           std::optional<StagedLaunch> &Staged,
                           LaunchTimes &Times) {
  assert(L.K && "checkLaunch resolves the kernel first");
  const RegisteredKernel &K = *L.K;
  auto T0 = Measure ? std::chrono::steady_clock::now()
                    : std::chrono::steady_clock::time_point();
  TracePoint EvaluateStart = traceNow();
  Staged.emplace(K, L.Params, L.Config, L.Facts);
  if (Measure)
    Times.Evaluate = msSince(T0);
  noteStaged(K.Blob, Staged->Values, EvaluateStart);
  if (Staged->GaveUp >= 0)
    return evaluatorGaveUp(K, uint32_t(Staged->GaveUp));
  return llvm::Error::success();
}

} // namespace mstage::rt
