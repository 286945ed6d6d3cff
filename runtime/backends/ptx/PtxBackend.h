//===- PtxBackend.h - PTX-only mode: compile, run nothing -------*- C++ -*-===//
//
// MSTAGE_BACKEND=ptx, or MSTAGE_ARCH without a GPU: kernels are compiled for
// MSTAGE_ARCH (cached and dumped) and nothing runs; device memory is host
// memory so that programs run through. Its one device is nominal: what the
// architecture fixes, and the size of a reference GPU of it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_PTX_PTXBACKEND_H
#define MSTAGE_RUNTIME_BACKENDS_PTX_PTXBACKEND_H

#include "backends/HostBackend.h"

namespace mstage::rt {

class PtxBackend final : public HostBackend {
public:
  // Arch is valid (checkArch); Why says why nothing runs.
  PtxBackend(std::string Arch, std::string Why);

  void start() const override;
  LaunchLimits limits() const override; // MSTAGE_ARCH's
  llvm::Error occupancy(CodeMaker Code, const mstage_launch_config &Config,
                        const char *Kernel, int *Blocks) const override;

private:
  void describeDevice(unsigned Device,
                      mstage_device_properties &P) const override;
};

} // namespace mstage::rt

#endif
