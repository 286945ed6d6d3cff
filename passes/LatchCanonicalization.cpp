//===- LatchCanonicalization.cpp - Loop exit tests on the incremented IV --===//
#include "LatchCanonicalization.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace mstage {

static bool canonicalizeLatch(Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Header = L.getHeader();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !Cmp->hasOneUse() || Cmp->getPredicate() != ICmpInst::ICMP_ULT)
    return false;
  auto *IV = dyn_cast<PHINode>(Cmp->getOperand(0));
  const APInt *Bound;
  if (!IV || IV->getParent() != Header ||
      !match(Cmp->getOperand(1), m_APInt(Bound)))
    return false;
  auto *Next = dyn_cast<BinaryOperator>(IV->getIncomingValueForBlock(Latch));
  const APInt *Step;
  if (!Next || Next->getOpcode() != Instruction::Add ||
      !Next->hasNoUnsignedWrap() || Next->getOperand(0) != IV ||
      !match(Next->getOperand(1), m_APInt(Step)))
    return false;
  bool Overflow = false;
  APInt NewBound = Bound->uadd_ov(*Step, Overflow);
  if (Overflow)
    return false;
  // i < C  <=>  i + step < C + step, as i + step does not wrap.
  Cmp->setOperand(0, Next);
  Cmp->setOperand(1, ConstantInt::get(Cmp->getOperand(1)->getType(), NewBound));
  Cmp->setSameSign(false);
  return true;
}

PreservedAnalyses LatchCanonicalizationPass::run(Function &F,
                                                 FunctionAnalysisManager &AM) {
  bool Changed = false;
  for (Loop *L : AM.getResult<LoopAnalysis>(F).getLoopsInPreorder())
    Changed |= canonicalizeLatch(*L);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mstage
