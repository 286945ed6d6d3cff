//===- CpuBackend.h - The CPU back end: the host's cores --------*- C++ -*-===//
//
// MSTAGE_BACKEND=cpu, or auto without a GPU: kernels run as their
// host-compiled bodies over the host's cores (CpuLaunch.h); memory and
// streams are the host's (HostBackend.h). Its one device is the host: its
// name from /proc/cpuinfo, arch "cpu", one multiprocessor per thread that
// runs blocks, held to sm_90's limits as its launches are, and an occupancy
// of 1, as each of its threads runs one block at a time.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUBACKEND_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUBACKEND_H

#include "backends/HostBackend.h"

namespace mstage::rt {

class CpuBackend final : public HostBackend {
public:
  // Why: why there is no GPU when auto chose the CPU, else "".
  explicit CpuBackend(std::string Why);

  llvm::Error occupancy(CodeMaker Code, const mstage_launch_config &Config,
                        const char *Kernel, int *Blocks) const override;
  // launchOnCpu, with MSTAGE_CHECK=stage's check (StageCheck.h).
  llvm::Error runHostBody(const RegisteredKernel &K, mstage_invoke_fn Invoke,
                          void *const *Params,
                          const mstage_launch_config &Config,
                          double *KernelMs) const override;

private:
  void describeDevice(unsigned Device,
                      mstage_device_properties &P) const override;
};

} // namespace mstage::rt

#endif
