//===- Backend.h - Where launches go: a GPU, PTX only, or nowhere ---------===//
#ifndef MSTAGE_RUNTIME_BACKEND_H
#define MSTAGE_RUNTIME_BACKEND_H

#include <string>

namespace mstage::rt {

class CudaDriver;

enum class BackendKind {
  Gpu,        // a CUDA driver and device: compile, load and run
  PtxOnly,    // no GPU but MSTAGE_ARCH: compile and dump, run nothing
  Unavailable // neither: every launch fails with Reason
};

struct Backend {
  BackendKind Kind = BackendKind::Unavailable;
  CudaDriver *Driver = nullptr; // set for Gpu
  std::string Arch;             // what kernels are compiled for
  std::string Reason;           // why there is no GPU (PtxOnly, Unavailable)
};

// Chosen once per process. PTX-only mode is announced on stderr once.
const Backend &backend();

} // namespace mstage::rt

#endif
