//===- ScanKernelTraits.h - Finds a kernel's traits in its device module --===//
#ifndef MSTAGE_PASSES_TRANSFORMS_SCANKERNELTRAITS_H
#define MSTAGE_PASSES_TRANSFORMS_SCANKERNELTRAITS_H

#include "formats/KernelTraits.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mstage {

// The traits (formats/KernelTraits.h) of the kernel whose device module is
// M, as embedded: its builtins are NVVM intrinsics already, except those
// that wait for the architecture. Only declarations and globals are read.
KernelTraits scanKernelTraits(const llvm::Module &M);

} // namespace mstage

#endif
