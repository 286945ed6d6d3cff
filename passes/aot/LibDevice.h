//===- LibDevice.h - NVIDIA's libdevice, embedded at build time -----------===//
//
// Linked into the runtime (the JIT) and into the Clang plugin (the
// ahead-of-time generic code), so that neither needs a CUDA toolkit where it
// runs.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_LIBDEVICE_H
#define MSTAGE_PASSES_AOT_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"

namespace mstage {

// The bytes of libdevice.10.bc.
llvm::StringRef libdeviceBitcode();

} // namespace mstage

#endif
