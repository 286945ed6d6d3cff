//===- DeviceWgmma.h - Warpgroup tensor-core builtins as inline PTX -------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEWGMMA_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEWGMMA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// Whether M calls the __mstage_wgmma_* builtins (mstage/wgmma.hpp).
bool usesWgmma(const llvm::Module &M);

// The architecture to compile M for on a device of Arch ("sm_90"): wgmma
// exists only in sm_90's arch-specific variant, so a module that uses it is
// compiled for "sm_90a" there (its code then runs on sm_90 devices only,
// which a JIT compile for the device is); anything else keeps Arch.
std::string targetArchFor(const llvm::Module &M, llvm::StringRef Arch);

// Replaces the calls of the __mstage_wgmma_* builtins with wgmma.fence,
// wgmma.mma_async (shared-memory descriptors of 128-byte swizzled K-major
// tiles), wgmma.commit_group and wgmma.wait_group as inline PTX. An error,
// naming the architecture, where TM's is not sm_90a. The device lowering
// keeps these calls until the architecture is known.
llvm::Error lowerWgmma(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace mstage

#endif
