//===- KernelSpecialization.h - Fold staged values and launch config ------===//
//
// Used by the JIT on a copy of a kernel's device module: each stage()
// placeholder becomes a constant holding the value the host computed, and the
// launch configuration becomes constants (block and grid sizes, and the
// dynamic shared memory size when given), ranges (thread and block indices)
// and .reqntid.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_KERNELSPECIALIZATION_H
#define MSTAGE_PASSES_TRANSFORMS_KERNELSPECIALIZATION_H

#include "formats/LaunchConfig.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
}

namespace mstage {

// Gives placeholder I the bytes StagedValues[I].
llvm::Error foldStagedValues(llvm::Module &M,
                             llvm::ArrayRef<llvm::StringRef> StagedValues);

// Folds the launch configuration into the kernel named KernelName; its
// dynamic shared memory size only when FoldSharedBytes (else the kernel reads
// %dynamic_smem_size).
void foldLaunchConfig(llvm::Module &M, llvm::StringRef KernelName,
                      const LaunchConfig &Config, bool FoldSharedBytes);

} // namespace mstage

#endif
