//===- LoadCode.h - A specialization's module on each device --------------===//
//
// Compiled code is loaded as the cubin when there is one and the driver
// takes it, else as PTX (which the driver JIT-compiles). With several
// devices it is compiled once and loaded on each device that launches it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LOADCODE_H
#define MSTAGE_RUNTIME_LAUNCH_LOADCODE_H

#include "cache/DiskCache.h"
#include "cache/MemoryCache.h"
#include "cuda/CudaDriver.h"
#include "launch/CodeRequest.h"

#include "llvm/Support/Error.h"

namespace mstage::rt {

// Loads Code into Out on R's device (on the GPU), keeping it for the other
// devices when there are several; off the GPU only notes whether it has a
// cubin. PtxOptLevel: the driver JIT's level for PTX (-1: its default).
llvm::Error loadCode(const CodeRequest &R, const CachedCode &Code,
                     CompiledKernel &Out, int PtxOptLevel = -1);

// Whether the last load on this thread failed because an earlier kernel's
// fault left the context unusable (not the load's own failure).
bool loadFoundContextLost();

// The function of C on device D: where it was compiled and loaded, else
// loaded on D now from the code the compile kept, once per device (also
// while the stream is captured, as a compile does).
llvm::Expected<CUfunction> functionOn(const RegisteredKernel &K,
                                      const Backend &B, const CompiledKernel &C,
                                      CudaDriver &D, bool Capturing);

} // namespace mstage::rt

#endif
