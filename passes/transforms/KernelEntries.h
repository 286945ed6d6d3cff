//===- KernelEntries.h - The kernel entries of a host module ----*- C++ -*-===//
#ifndef MSTAGE_PASSES_TRANSFORMS_KERNELENTRIES_H
#define MSTAGE_PASSES_TRANSFORMS_KERNELENTRIES_H

#include "formats/KernelTags.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace mstage {

struct KernelEntry {
  llvm::Function *F = nullptr;
  KernelSourceInfo Info;
};

// The defined functions annotated "mstage.kernel", with the plugin's info;
// without it (compiled without the plugin's front-end half) the names are
// derived from the function's.
llvm::SmallVector<KernelEntry, 4> findKernelEntries(llvm::Module &M);

// The file of the kernel's lambda, from its "file:line:column" location.
llvm::StringRef kernelFile(const KernelSourceInfo &Info);

} // namespace mstage

#endif
