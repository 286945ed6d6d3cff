//===- WorkMeasure.cpp - Measures a kernel's weight on its device module --===//
#include "transforms/WorkMeasure.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace mstage {

static void addFunction(Function &F, KernelWork &W) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (BasicBlock &BB : F) {
    unsigned Depth = LI.getLoopDepth(&BB);
    W.LoopDepth = std::max(W.LoopDepth, uint32_t(Depth));
    W.Instructions += BB.size();
    W.ThreadInstructions +=
        double(BB.size()) * std::pow(LoopTrips, std::min(Depth, MaxLoopLevels));
  }
}

KernelWork measureKernelWork(Module &M) {
  KernelWork W;
  for (Function &F : M)
    if (!F.isDeclaration())
      addFunction(F, W);
  return W;
}

} // namespace mstage
