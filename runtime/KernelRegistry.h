//===- KernelRegistry.h - Kernels registered by the program's objects -----===//
#ifndef MSTAGE_RUNTIME_KERNELREGISTRY_H
#define MSTAGE_RUNTIME_KERNELREGISTRY_H

#include "KernelBlob.h"
#include "mstage/abi.h"

namespace mstage::rt {

struct RegisteredKernel {
  const mstage_kernel_record *Record = nullptr;
  KernelBlob Blob; // Bitcode points into the program's image
};

// The kernel whose host entry is HostEntry, or null when the program holds no
// device code for it (then Why says what to do).
const RegisteredKernel *findKernel(const void *HostEntry, std::string &Why);

} // namespace mstage::rt

#endif
