//===- LaunchOnCpu.h - A launch on the CPU back end -----------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LAUNCHONCPU_H
#define MSTAGE_RUNTIME_LAUNCH_LAUNCHONCPU_H

#include "launch/LaunchRequest.h"

namespace mstage::rt {

// Runs L's kernel's host-compiled body on the host's cores now (its time
// into *KernelMs, when not null), or records it while L's stream is
// captured. Nothing is compiled. The C ABI's status.
int launchOnCpu(const LaunchRequest &L, double *KernelMs);

} // namespace mstage::rt

#endif
