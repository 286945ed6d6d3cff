//===- LaunchOnGpu.h - A launch through the CUDA driver -------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LAUNCHONGPU_H
#define MSTAGE_RUNTIME_LAUNCH_LAUNCHONGPU_H

#include "core/StagedLaunch.h"
#include "launch/FindOrMakeCode.h"
#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"

namespace mstage::rt {

// Enqueues L's kernel on L's stream with Code (loaded on the stream's
// device first when it was compiled on another), its parameters over the
// parameter space copied to device memory. KernelMs gets the kernel's time
// with TimeKernel, else 0. Waits for it when its code is not cached or under
// MSTAGE_LAUNCH_BLOCKING=1.
llvm::Error launchOnGpu(const LaunchRequest &L, const StagedLaunch &Staged,
                        const LaunchCode &Code, bool TimeKernel,
                        double &KernelMs);

} // namespace mstage::rt

#endif
