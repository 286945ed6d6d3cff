//===- LibDevice.h - NVIDIA's libdevice, embedded in the runtime ----------===//
#ifndef MSTAGE_RUNTIME_LIBDEVICE_H
#define MSTAGE_RUNTIME_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"

namespace mstage::rt {

// The bytes of libdevice.10.bc, linked into the runtime at build time so that
// a program needs no CUDA toolkit where it runs.
llvm::StringRef libdeviceBitcode();

} // namespace mstage::rt

#endif
