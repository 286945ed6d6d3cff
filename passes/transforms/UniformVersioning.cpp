//===- UniformVersioning.cpp - Version a kernel on its argument tests -----===//
#include "transforms/UniformVersioning.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "mstage-version-argument-tests"

STATISTIC(NumVersioned, "Kernels versioned on their arguments' tests");
STATISTIC(NumTestsFolded, "Argument tests folded in the versioned copies");

// An expert switch (MSTAGE_LLVM_ARGS) for measuring the copy's effect.
static cl::opt<bool>
    Enabled("mstage-version-argument-tests", cl::init(true), cl::Hidden,
            cl::desc("Give a kernel whose loops test its arguments for "
                     "special values a copy without those tests"));

// Over this size the copy's compile time is not worth it: a kernel this
// long has work enough in its loops to hide the tests' branches.
static cl::opt<unsigned> MaxInstructions(
    "mstage-version-max-instructions", cl::init(3000), cl::Hidden,
    cl::desc("Largest kernel (IR instructions) to version on argument tests"));

// Marks a versioned kernel: the function simplification pipeline may visit
// a kernel again, and one copy is the bound.
static constexpr const char *VersionedAttr = "mstage-versioned";

namespace mstage {

namespace {

// Which values depend only on the kernel's arguments: constants, arguments,
// loads from read-only by-value parameters, and side-effect-free operations
// of such values. Each is the same in every thread (uniform) and everywhere
// in the kernel, so it can be computed again at the entry.
class ArgumentDerived {
public:
  bool operator()(Value *V, unsigned Depth = 0) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12)
      return false;
    if (auto It = Known.find(I); It != Known.end())
      return It->second;
    bool Ok = check(I, Depth);
    Known[I] = Ok;
    return Ok;
  }

private:
  bool check(Instruction *I, unsigned Depth) {
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      auto *A = dyn_cast<Argument>(
          LI->getPointerOperand()->stripInBoundsConstantOffsets());
      // A kernel's by-value parameter that nothing writes: parameter space.
      return LI->isSimple() && A && A->hasByValAttr() && A->onlyReadsMemory();
    }
    if (auto *CI = dyn_cast<CallInst>(I)) {
      Function *Callee = CI->getCalledFunction();
      // The special registers (thread and lane indices) differ by thread.
      if (!Callee || !Callee->isIntrinsic() ||
          Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
        return false;
    }
    if (isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
        !isSafeToSpeculativelyExecute(I))
      return false;
    return all_of(I->operands(),
                  [&](Value *Op) { return (*this)(Op, Depth + 1); });
  }

  DenseMap<Instruction *, bool> Known;
};

// The usual outcome of a floating-point test for a special value, if V is
// one: not equal to 0, 1, -1 or infinity, not NaN, not below zero (the
// special cases of the math library's functions).
std::optional<bool> usualOutcome(Value *V) {
  auto *C = dyn_cast<FCmpInst>(V);
  if (!C)
    return std::nullopt;
  FCmpInst::Predicate P = C->getPredicate();
  if (P == FCmpInst::FCMP_UNO || P == FCmpInst::FCMP_ORD)
    return P == FCmpInst::FCMP_ORD;
  const APFloat *K;
  if (!match(C->getOperand(1), m_APFloat(K)))
    return std::nullopt;
  if (K->isZero() || K->isInfinity() || K->isExactlyValue(1.0) ||
      K->isExactlyValue(-1.0)) {
    if (P == FCmpInst::FCMP_OEQ || P == FCmpInst::FCMP_UEQ)
      return false;
    if (P == FCmpInst::FCMP_ONE || P == FCmpInst::FCMP_UNE)
      return true;
  }
  if (K->isPosZero()) {
    if (P == FCmpInst::FCMP_OLT || P == FCmpInst::FCMP_ULT ||
        P == FCmpInst::FCMP_OLE || P == FCmpInst::FCMP_ULE)
      return false;
    if (P == FCmpInst::FCMP_OGE || P == FCmpInst::FCMP_UGE ||
        P == FCmpInst::FCMP_OGT || P == FCmpInst::FCMP_UGT)
      return true;
  }
  return std::nullopt;
}

// The tests that branch condition Cond combines with and/or.
void collectTests(Value *Cond, SmallSetVector<Value *, 16> &Tests,
                  SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(Cond).second)
    return;
  Value *A, *B;
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))) ||
      match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    collectTests(A, Tests, Seen);
    collectTests(B, Tests, Seen);
    return;
  }
  if (isa<FCmpInst>(Cond))
    Tests.insert(Cond);
}

// A copy of V's computation at the builder's position.
Value *recompute(Value *V, IRBuilder<> &B, ValueToValueMapTy &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *D = Done.lookup(I))
    return D;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(recompute(Op.get(), B, Done));
  B.Insert(C, I->getName() + ".entry");
  Done[I] = C;
  return C;
}

} // namespace

bool versionOnArgumentTests(Function &F, FunctionAnalysisManager &AM) {
  if (!Enabled || F.getCallingConv() != CallingConv::PTX_Kernel ||
      F.hasFnAttribute(VersionedAttr) || F.isDeclaration() ||
      F.getInstructionCount() > MaxInstructions)
    return false;
  auto &LI = AM.getResult<LoopAnalysis>(F);
  // A block whose address is taken would be reached in the original body
  // from the copy too.
  if (LI.empty() ||
      any_of(F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }))
    return false;
  // The tests the loops' branches make on the arguments, with the outcome
  // the copy assumes for each.
  ArgumentDerived Derived;
  SmallSetVector<Value *, 16> Candidates;
  SmallPtrSet<Value *, 32> Seen;
  for (BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (Br && Br->isConditional() && LI.getLoopFor(&BB))
      collectTests(Br->getCondition(), Candidates, Seen);
  }
  SmallVector<std::pair<Value *, bool>, 8> Tests;
  for (Value *T : Candidates)
    if (std::optional<bool> Usual = usualOutcome(T); Usual && Derived(T))
      Tests.push_back({T, *Usual});
  if (Tests.empty())
    return false;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << F.getName() << " on "
                    << Tests.size() << " tests\n");

  // A new entry holds the static allocas (shared by both copies: only one
  // runs) and the choice.
  LLVMContext &Ctx = F.getContext();
  BasicBlock *OldEntry = &F.getEntryBlock();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "mstage.version", &F, OldEntry);
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      AI->moveBefore(Entry->end());

  SmallVector<BasicBlock *, 64> Body;
  for (BasicBlock &BB : F)
    if (&BB != Entry)
      Body.push_back(&BB);
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 64> Copy;
  for (BasicBlock *BB : Body) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".usual", &F);
    VMap[BB] = C;
    Copy.push_back(C);
  }
  remapInstructionsInBlocks(Copy, VMap);

  IRBuilder<> B(Entry);
  ValueToValueMapTy AtEntry;
  Value *Usual = nullptr;
  for (auto [T, Outcome] : Tests) {
    Value *Now = recompute(T, B, AtEntry);
    if (!Outcome)
      Now = B.CreateNot(Now);
    Usual = Usual ? B.CreateAnd(Usual, Now) : Now;
    Value *InCopy = VMap.lookup(T);
    assert(InCopy && "each test is an instruction of the body");
    InCopy->replaceAllUsesWith(ConstantInt::getBool(Ctx, Outcome));
    ++NumTestsFolded;
  }
  B.CreateCondBr(Usual, cast<BasicBlock>(VMap[OldEntry]), OldEntry);
  F.addFnAttr(VersionedAttr);
  ++NumVersioned;
  return true;
}

PreservedAnalyses UniformVersioningPass::run(Function &F,
                                             FunctionAnalysisManager &AM) {
  return versionOnArgumentTests(F, AM) ? PreservedAnalyses::none()
                                       : PreservedAnalyses::all();
}

} // namespace mstage
