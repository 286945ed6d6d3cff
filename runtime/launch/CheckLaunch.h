//===- CheckLaunch.h - The kernel, its parameters and configuration -------===//
//
// What a launch, a compile ahead (mstage_rt_compile) and prepare() check
// first: that the kernel is registered and can run here, that it was given
// as many parameters as it was compiled for, that its launch configuration
// fits a GPU, and that the settings that fail launches are well formed.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_CHECKLAUNCH_H
#define MSTAGE_RUNTIME_LAUNCH_CHECKLAUNCH_H

#include "core/KernelRegistry.h"

#include "mstage/abi.h"

#include "llvm/Support/Error.h"
#include "formats/LaunchConfig.h"

#include <cstdint>

namespace mstage::rt {

// The kernel whose host entry is HostEntry, when it can run here.
llvm::Expected<const RegisteredKernel *> findRunnable(const void *HostEntry);

// Sets K to the kernel of HostEntry and Effective to Config with
// MSTAGE_FAST_MATH applied, or fails naming the kernel.
llvm::Error checkLaunch(const void *HostEntry, uint32_t NumParams,
                        const LaunchConfig &Config,
                        const RegisteredKernel *&K,
                        LaunchConfig &Effective);

} // namespace mstage::rt

#endif
