//===- LaunchCompiled.h - A launch on a back end that compiles ------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LAUNCHCOMPILED_H
#define MSTAGE_RUNTIME_LAUNCH_LAUNCHCOMPILED_H

#include "core/StagedLaunch.h"
#include "launch/FindOrMakeCode.h"
#include "launch/LaunchRequest.h"

namespace mstage::rt {

// Launches L with Code on the back end that compiled it: through the
// driver on the GPU (LaunchOnGpu.h); in PTX-only mode nothing runs, and a
// captured launch is recorded (for the replay to skip). The C ABI's status.
int launchCompiled(const LaunchRequest &L, const StagedLaunch &Staged,
                   const LaunchCode &Code, bool TimeKernel, double &KernelMs);

} // namespace mstage::rt

#endif
