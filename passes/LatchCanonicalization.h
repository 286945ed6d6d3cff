//===- LatchCanonicalization.h - Loop exit tests on the incremented IV ----===//
//
// InstCombine rewrites a loop's exit test `i + c < n` into `i < n - c` (on
// the un-incremented induction variable). IRCE only understands exit tests
// on the incremented value, so this pass turns `i ult C` back into
// `i.next ult C + c` where i.next = i + c does not wrap. The JIT runs it
// before IRCE, which then splits loops around range checks.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_LATCHCANONICALIZATION_H
#define MSTAGE_PASSES_LATCHCANONICALIZATION_H

#include "llvm/IR/PassManager.h"

namespace mstage {

class LatchCanonicalizationPass
    : public llvm::PassInfoMixin<LatchCanonicalizationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace mstage

#endif
