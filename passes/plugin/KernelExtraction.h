//===- KernelExtraction.h - Split kernels out of the host module ----------===//
//
// Runs at the start of the host pipeline, before anything host-specific has
// happened to the IR. For each kernel entry it builds a device module holding
// the entry and everything it reaches, retargets it to nvptx64, and embeds it
// as bitcode with a descriptor that a static constructor registers with the
// runtime. The host module keeps its own copy of the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_PLUGIN_KERNELEXTRACTION_H
#define MSTAGE_PASSES_PLUGIN_KERNELEXTRACTION_H

#include "llvm/IR/PassManager.h"

namespace mstage {

class KernelExtractionPass : public llvm::PassInfoMixin<KernelExtractionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace mstage

#endif
