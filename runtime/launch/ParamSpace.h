//===- ParamSpace.h - Parameters over the kernel-parameter space ----------===//
//
// Parameters (and captures) over the kernel-parameter limit are read from
// device memory (CaptureInMemory.h): each launch copies them there, from
// the caller's memory, which a stream capture cannot record.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_PARAMSPACE_H
#define MSTAGE_RUNTIME_LAUNCH_PARAMSPACE_H

#include "core/StagedLaunch.h"
#include "inspect/Trace.h"
#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mstage::rt {

// Sets L.InMemory to the parameters of L that go to device memory on the
// back end's architecture, and Times.BytesInMemory to their size; fails,
// naming the kernel, when there are some and L's stream is captured. The
// code is made for them, as the sizes are the kernel's.
llvm::Error placeParams(LaunchRequest &L, const StagedLaunch &Staged,
                        LaunchTimes &Times);

// The CPU back end is held to sm_90's parameter space (LaunchLimits.h): fails
// as placeParams does when L is captured and would not fit there.
llvm::Error checkCapturableOnCpu(const LaunchRequest &L);

} // namespace mstage::rt

#endif
