//===- CpuRecording.h - Launches off the GPU recorded into a graph --------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_CPURECORDING_H
#define MSTAGE_RUNTIME_LAUNCH_CPURECORDING_H

#include "launch/LaunchRequest.h"

namespace mstage::rt {

// Off the GPU while L's stream is captured: the launch is recorded with
// copies of its parameters, and runs (on the CPU) when the graph is
// replayed; in PTX-only mode nothing runs. The C ABI's status.
int recordCpuLaunch(const LaunchRequest &L);

} // namespace mstage::rt

#endif
