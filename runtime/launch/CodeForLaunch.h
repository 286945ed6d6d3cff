//===- CodeForLaunch.h - The code a launch would run ----------*- C++ -*-===//
//
// Questions about a kernel's code, such as its occupancy, are asked of the
// specialization its launch would run: found in the memory cache, or made
// now under the same key as a launch makes it (staged values, launch shape
// and the facts of its pointers).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_CODEFORLAUNCH_H
#define MSTAGE_RUNTIME_LAUNCH_CODEFORLAUNCH_H

#include "cuda/CudaDriver.h"
#include "mstage/abi.h"
#include "formats/LaunchConfig.h"

#include <cstdint>

namespace mstage::rt {

// On the GPU: Function is the specialization's, and Owned the module the
// caller unloads when done (MSTAGE_CACHE=off keeps nothing), or null.
llvm::Error codeForLaunch(const void *HostEntry, void *const *Params,
                          const uint32_t *ParamSizes, uint32_t NumParams,
                          const LaunchConfig &Config,
                          CUfunction &Function, CUmodule &Owned);

} // namespace mstage::rt

#endif
