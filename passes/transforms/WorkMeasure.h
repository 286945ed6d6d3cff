//===- WorkMeasure.h - Measures a kernel's weight on its device module ----===//
#ifndef MSTAGE_PASSES_TRANSFORMS_WORKMEASURE_H
#define MSTAGE_PASSES_TRANSFORMS_WORKMEASURE_H

#include "formats/KernelWork.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mstage {

// The weight (formats/KernelWork.h) of the kernel whose device module is M:
// all of M's defined functions, each once.
KernelWork measureKernelWork(llvm::Module &M);

} // namespace mstage

#endif
