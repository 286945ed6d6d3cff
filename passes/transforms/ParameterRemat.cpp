//===- ParameterRemat.cpp - Reload kernel parameters at their uses --------===//
#include "transforms/ParameterRemat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-remat-parameters"

STATISTIC(NumReloaded, "Kernel parameter loads repeated at a use");
STATISTIC(NumAddresses, "Element addresses recomputed after a loop");

// An expert switch (MSTAGE_LLVM_ARGS) for measuring the pass's effect.
static cl::opt<bool>
    Enabled("mstage-remat-parameters", cl::init(true), cl::Hidden,
            cl::desc("Reload a kernel's by-value parameters at their uses "
                     "in loops instead of holding them in registers"));

// A kernel with more loops is left as it is: each use looks at each loop.
static constexpr unsigned MaxLoops = 64;

namespace mstage {

namespace {

// A simple load of a kernel's by-value parameter that nothing writes: it
// reads parameter space, the same value wherever it is repeated.
bool isParameterLoad(const Value *V) {
  auto *L = dyn_cast<LoadInst>(V);
  if (!L || !L->isSimple())
    return false;
  auto *A = dyn_cast<Argument>(
      L->getPointerOperand()->stripInBoundsConstantOffsets());
  return A && A->hasByValAttr() && A->onlyReadsMemory();
}

class Remat {
public:
  Remat(Function &F, LoopInfo &LI, DominatorTree &DT)
      : LI(LI), DT(DT), Loops(LI.getLoopsInPreorder()) {
    (void)F;
  }

  bool tooManyLoops() const { return Loops.size() > MaxLoops; }

  // Whether every path from Def to At passes through a whole loop that
  // holds neither: a value of Def used at At is live all through it.
  bool crossesLoop(BasicBlock *Def, BasicBlock *At) const {
    for (Loop *L : Loops)
      if (!L->contains(Def) && !L->contains(At) &&
          DT.dominates(Def, L->getHeader()) && DT.dominates(L->getHeader(), At))
        return true;
    return false;
  }

  bool deeper(BasicBlock *Def, BasicBlock *At) const {
    return LI.getLoopDepth(At) > LI.getLoopDepth(Def);
  }

private:
  LoopInfo &LI;
  DominatorTree &DT;
  SmallVector<Loop *, 8> Loops;
};

// Where a use's value is needed: before its user, or at the end of the
// incoming block of a phi.
Instruction *usePoint(Use &U) {
  auto *User = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(User))
    return Phi->getIncomingBlock(U)->getTerminator();
  return User;
}

// A copy of parameter load L (and of its constant address) before At.
Instruction *reload(LoadInst *L, Instruction *At) {
  Value *Ptr = L->getPointerOperand();
  if (auto *G = dyn_cast<GetElementPtrInst>(Ptr)) {
    Instruction *C = G->clone();
    C->insertBefore(At->getIterator());
    Ptr = C;
  }
  Instruction *C = L->clone();
  C->setOperand(LoadInst::getPointerOperandIndex(), Ptr);
  C->insertBefore(At->getIterator());
  ++NumReloaded;
  return C;
}

} // namespace

bool rematerializeParameters(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled || F.getCallingConv() != CallingConv::PTX_Kernel ||
      F.isDeclaration())
    return false;
  auto &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
  Remat R(F, LI, DT);
  if (R.tooManyLoops())
    return false;
  SmallVector<LoadInst *, 16> Loads;
  SmallVector<GetElementPtrInst *, 16> Addresses;
  for (Instruction &I : instructions(F)) {
    if (isParameterLoad(&I))
      Loads.push_back(cast<LoadInst>(&I));
    else if (auto *G = dyn_cast<GetElementPtrInst>(&I);
             G && isParameterLoad(G->getPointerOperand()))
      Addresses.push_back(G);
  }
  bool Changed = false;
  SmallVector<WeakTrackingVH, 16> Dead;
  // An element address, p + i with p a parameter's pointer, held through a
  // loop to its use: p is reloaded and the address recomputed there, as i
  // is live there anyway (a loop's induction variable, say).
  for (GetElementPtrInst *G : Addresses) {
    for (Use &U : make_early_inc_range(G->uses())) {
      Instruction *At = usePoint(U);
      if (At->getParent() == G->getParent() ||
          !R.crossesLoop(G->getParent(), At->getParent()))
        continue;
      auto *C = cast<Instruction>(G->clone());
      C->setOperand(0, reload(cast<LoadInst>(G->getPointerOperand()), At));
      C->insertBefore(At->getIterator());
      U.set(C);
      ++NumAddresses;
      Changed = true;
    }
    Dead.push_back(G);
  }
  // A parameter used in a deeper loop, or after a loop, is loaded there.
  for (LoadInst *L : Loads) {
    for (Use &U : make_early_inc_range(L->uses())) {
      Instruction *At = usePoint(U);
      BasicBlock *Def = L->getParent(), *Where = At->getParent();
      if (Where == Def || (!R.deeper(Def, Where) && !R.crossesLoop(Def, Where)))
        continue;
      U.set(reload(L, At));
      Changed = true;
    }
    Dead.push_back(L);
  }
  if (Changed)
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  return Changed;
}

PreservedAnalyses ParameterRematPass::run(Function &F,
                                          FunctionAnalysisManager &AM) {
  if (!rematerializeParameters(F, AM))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace mstage
