//===- CpuLaunch.h - Launching kernels on the host's cores ----------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPULAUNCH_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPULAUNCH_H

#include "core/KernelRegistry.h"

#include "llvm/Support/Error.h"

#include "mstage/abi.h"

namespace mstage::rt {

// Runs kernel K on the CPU: every block of Config, spread over the host's
// cores, each thread a call of Invoke (the kernel's host body). KernelMs,
// when not null, receives the launch's wall time.
llvm::Error launchOnCpu(const RegisteredKernel &K, mstage_invoke_fn Invoke,
                        void *const *Params, const mstage_launch_config &Config,
                        double *KernelMs);

} // namespace mstage::rt

#endif
