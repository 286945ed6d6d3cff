//===- ParameterRemat.h - Kernel parameters reloaded at uses ----*- C++ -*-===//
//
// A kernel's by-value parameters live in the parameter (constant) bank, so
// a load of one is free where it is used: SASS reads it as an operand.
// LICM hoists such loads to the kernel's entry, and each value then holds a
// register through every loop after it (issue 34's Adam step: 44 registers
// unstaged against nvcc's 36, which reloads its parameters in the loop).
// This pass, run last in the JIT's optimizer, loads a parameter again
// next to each use that sits in a deeper loop than the load, or after a
// loop that the load precedes and does not use it in; and recomputes an
// element address (a parameter's pointer indexed by a value live there
// anyway) after a loop rather than holding it through the loop.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_PARAMETERREMAT_H
#define MSTAGE_PASSES_TRANSFORMS_PARAMETERREMAT_H

#include "llvm/IR/PassManager.h"

namespace mstage {

// Reloads kernel F's parameters at their uses (see above). Returns whether
// it changed F.
bool rematerializeParameters(llvm::Function &F,
                             llvm::FunctionAnalysisManager &AM);

// rematerializeParameters as a pass; opt: mstage-remat-parameters.
struct ParameterRematPass : llvm::PassInfoMixin<ParameterRematPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace mstage

#endif
