//===- KernelSpecialization.h - Fold staged values and launch extents -----===//
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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Module;
}

namespace mstage {

struct LaunchExtents {
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  // The launch's dynamic shared memory in bytes; unknown, the kernel reads
  // %dynamic_smem_size.
  std::optional<uint32_t> SharedBytes;
};

// Gives placeholder I the bytes StagedValues[I].
llvm::Error foldStagedValues(llvm::Module &M,
                             llvm::ArrayRef<llvm::StringRef> StagedValues);

// Folds the launch configuration into the kernel named KernelName.
void foldLaunchExtents(llvm::Module &M, llvm::StringRef KernelName,
                       const LaunchExtents &Extents);

} // namespace mstage

#endif
