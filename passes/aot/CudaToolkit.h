//===- CudaToolkit.h - Where the CUDA toolkit's tools are -----------------===//
//
// Shared by the plugin (ptxas for the ahead-of-time cubins) and the runtime
// (ptxas for the disk cache, cuobjdump for MSTAGE_DUMP=sass), so that both
// find the same toolkit.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_CUDATOOLKIT_H
#define MSTAGE_PASSES_AOT_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mstage {

// A tool of the CUDA toolkit: from PATH, else $CUDA_HOME/bin, $CUDA_PATH/bin
// or /usr/local/cuda/bin; "" when there is none.
std::string findCudaTool(llvm::StringRef Name);

// The ptxas that PTX is assembled with, from Setting, MSTAGE_PTXAS's value
// as each reader got it ("" when unset): a program, or off; without one,
// findCudaTool("ptxas"). The plugin and the runtime choose alike.
struct PtxasChoice {
  std::string Path;        // "" when there is none
  std::string Why;         // when there is none, why
  bool Unrunnable = false; // Setting names a program that cannot be run
};
PtxasChoice choosePtxas(llvm::StringRef Setting);

// The architecture ptxas assembles PTX for on a device of Arch ("sm_90"):
// Arch's arch-specific variant ("sm_90a") when that is the PTX's .target
// (kernels that use wgmma, DeviceWgmma.h), which ptxas refuses for Arch;
// else Arch.
std::string ptxasArch(llvm::StringRef PTX, llvm::StringRef Arch);

} // namespace mstage

#endif
