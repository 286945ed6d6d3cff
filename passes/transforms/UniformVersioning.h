//===- UniformVersioning.h - Version kernels on argument tests -*- C++ -*-===//
//
// Inlined library functions test their arguments for special values in every
// iteration of a loop: powf(beta, t) in a time loop tests beta == 1, beta ==
// -1, beta == 0, |beta| == inf and beta != beta at every step, each a branch
// that splits the loop into small blocks (issue 34's Adam step, 1.09x nvcc's
// time; nvcc unswitched the loop on beta == 1). LLVM's non-trivial loop
// unswitching is off on targets with divergent branches, and with a raised
// threshold it clones a loop for every test (30 times the code).
//
// When a kernel's loops branch on such tests, and each test depends only on
// the kernel's arguments (so it is uniform and the same in every iteration),
// this gives the kernel a second copy of its body in which every such test
// takes its usual outcome: a value is not equal to a constant, not NaN. The
// entry chooses that copy when all the tests have those outcomes, else the
// original body runs unchanged. The code grows by one copy of the kernel, at
// most twice the size, however many tests there are; the passes after it fold
// the branches of the copy away.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_UNIFORMVERSIONING_H
#define MSTAGE_PASSES_TRANSFORMS_UNIFORMVERSIONING_H

#include "llvm/IR/PassManager.h"

namespace mstage {

// Versions kernel F on the special-value tests of its arguments that its
// loops branch on (see above). Returns whether it made the copy.
bool versionOnArgumentTests(llvm::Function &F,
                            llvm::FunctionAnalysisManager &AM);

// versionOnArgumentTests as a pass: the device pipeline runs it at the end
// of the function simplification (after inlining), opt as
// mstage-version-argument-tests.
struct UniformVersioningPass : llvm::PassInfoMixin<UniformVersioningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace mstage

#endif
