//===- Backend.h - Where launches go: a GPU, the CPU, PTX only, nowhere ---===//
//
// Declared here for the rooms that ask which back end runs; chosen in
// runtime/Backend.cpp, at the top, which knows every back end (it starts the
// compile pool and counts the CPU back end's threads).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_BACKEND_H
#define MSTAGE_RUNTIME_CORE_BACKEND_H

#include <string>

namespace mstage::rt {

class CudaDriver;

enum class BackendKind {
  Gpu,        // a CUDA driver and device: compile, load and run
  Cpu,        // run each kernel's host-compiled body on the host's cores
  PtxOnly,    // compile and dump, run nothing
  Unavailable // none of them: every launch fails with Reason
};

struct Backend {
  BackendKind Kind = BackendKind::Unavailable;
  CudaDriver *Driver = nullptr; // set for Gpu
  std::string Arch;             // what kernels are compiled for (Gpu, PtxOnly)
  std::string Reason; // why there is no GPU (PtxOnly, Cpu by auto), or why
                      // nothing can run (Unavailable)
};

// Chosen once per process from MSTAGE_BACKEND (auto, cuda, cpu or ptx) and
// MSTAGE_ARCH. auto is the GPU when there is one; else PTX-only when
// MSTAGE_ARCH is set (as before the CPU back end existed), else the CPU. A
// fallback (PTX-only or the CPU) is announced on stderr once.
const Backend &backend();

// The devices that launches may go to: the GPUs (CudaDriver::count()), or
// the one of the CPU back end and of PTX-only mode; 0 when unavailable.
unsigned deviceCount();

// The name of a backend kind as mstage_rt_backend() gives it.
const char *backendName(BackendKind Kind);

} // namespace mstage::rt

#endif
