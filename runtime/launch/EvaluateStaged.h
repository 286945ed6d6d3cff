//===- EvaluateStaged.h - A launch's staged values ------------------------===//
//
// The launch's evaluators run on the host: their values, the launch
// configuration and the facts of the pointers make the launch's key
// (core/StagedLaunch.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_EVALUATESTAGED_H
#define MSTAGE_RUNTIME_LAUNCH_EVALUATESTAGED_H

#include "core/StagedLaunch.h"
#include "inspect/Trace.h"
#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace mstage::rt {

// Makes Staged from L (in place: its values point into its own buffer).
// With Measure, the evaluators' time goes into Times.Evaluate. Fails, naming
// the kernel, when an evaluator gave up.
llvm::Error evaluateStaged(const LaunchRequest &L, bool Measure,
                           std::optional<StagedLaunch> &Staged,
                           LaunchTimes &Times);

} // namespace mstage::rt

#endif
