//===- KernelWork.cpp - A kernel's size and one thread's work, from its IR ===//
#include "jit/KernelWork.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace mstage::rt {

static void addFunction(Function &F, KernelWork &W) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (BasicBlock &BB : F) {
    unsigned Depth = LI.getLoopDepth(&BB);
    W.LoopDepth = std::max(W.LoopDepth, Depth);
    W.Instructions += BB.size();
    W.ThreadInstructions +=
        double(BB.size()) * std::pow(LoopTrips, std::min(Depth, MaxLoopLevels));
  }
}

Expected<KernelWork> measureKernelWork(const KernelBlob &K) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile(MemoryBufferRef(K.Bitcode, K.Name), Ctx);
  if (!M)
    return M.takeError();
  KernelWork W;
  for (Function &F : **M)
    if (!F.isDeclaration())
      addFunction(F, W);
  return W;
}

} // namespace mstage::rt
