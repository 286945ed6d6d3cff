//===- DeviceAtomics.cpp - Scope and memory order of device atomics -------===//
#include "transforms/DeviceAtomics.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-atomics"

STATISTIC(NumBlockScope, "Atomics given block scope");
STATISTIC(NumDeviceScope, "Atomics and fences given device scope");
STATISTIC(NumFencedRMWs, "Ordered atomic read-modify-writes given fences");

namespace mstage {

// Whether V is an llvm.annotation call carrying BlockScopeMark.
static bool isBlockScopeMark(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II || II->getIntrinsicID() != Intrinsic::annotation)
    return false;
  StringRef Text;
  return getConstantStringInfo(II->getArgOperand(1), Text) &&
         Text == BlockScopeMark;
}

// Whether every way Ptr can come about is a block-scope mark. Anything else
// (an unmarked pointer on any path) means device scope, which is also
// correct for block-scope data, only with dearer fences.
static bool isBlockScopePointer(Value *Ptr) {
  SmallVector<Value *, 4> Work{Ptr};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (auto *I2P = dyn_cast<IntToPtrInst>(V)) {
      if (!isBlockScopeMark(I2P->getOperand(0)))
        return false;
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      Work.push_back(Sel->getTrueValue());
      Work.push_back(Sel->getFalseValue());
    } else if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      Work.push_back(GEP->getPointerOperand());
    } else if (auto *Cast = dyn_cast<AddrSpaceCastOperator>(V)) {
      Work.push_back(Cast->getPointerOperand());
    } else {
      return false;
    }
  }
  return true;
}

static Value *atomicPointer(Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic())
    return LI->getPointerOperand();
  if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic())
    return SI->getPointerOperand();
  return nullptr;
}

// Replaces inttoptr(mark(ptrtoint P)) with P, and the mark with its operand.
static void removeMark(IntrinsicInst *Mark) {
  assert(isBlockScopeMark(Mark) && "only block-scope marks are removed");
  Value *Int = Mark->getArgOperand(0);
  if (auto *P2I = dyn_cast<PtrToIntInst>(Int))
    for (User *U : make_early_inc_range(Mark->users()))
      if (auto *I2P = dyn_cast<IntToPtrInst>(U);
          I2P && I2P->getType() == P2I->getPointerOperand()->getType()) {
        I2P->replaceAllUsesWith(P2I->getPointerOperand());
        I2P->eraseFromParent();
      }
  Mark->replaceAllUsesWith(Int);
  SmallVector<GlobalVariable *, 2> Strings;
  for (Value *Op : {Mark->getArgOperand(1), Mark->getArgOperand(2)})
    if (auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
      Strings.push_back(GV);
  Mark->eraseFromParent();
  if (Int->use_empty())
    if (auto *I = dyn_cast<Instruction>(Int))
      I->eraseFromParent();
  for (GlobalVariable *GV : Strings)
    if (GV->use_empty() && GV->hasLocalLinkage())
      GV->eraseFromParent();
}

void scopeDeviceAtomics(Module &M) {
  LLVMContext &Ctx = M.getContext();
  SyncScope::ID Block = Ctx.getOrInsertSyncScopeID("block");
  SyncScope::ID Device = Ctx.getOrInsertSyncScopeID("device");
  SmallVector<IntrinsicInst *, 8> Marks;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (isBlockScopeMark(&I))
        Marks.push_back(cast<IntrinsicInst>(&I));
      if (auto *Fence = dyn_cast<FenceInst>(&I)) {
        if (Fence->getSyncScopeID() == SyncScope::System) {
          Fence->setSyncScopeID(Device);
          ++NumDeviceScope;
        }
        continue;
      }
      Value *Ptr = atomicPointer(I);
      if (!Ptr || getAtomicSyncScopeID(&I) != SyncScope::System)
        continue;
      bool InBlock = isBlockScopePointer(Ptr);
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << (InBlock ? "block" : "device")
                        << " scope for " << I << "\n");
      setAtomicSyncScopeID(&I, InBlock ? Block : Device);
      ++(InBlock ? NumBlockScope : NumDeviceScope);
    }
  for (IntrinsicInst *Mark : Marks)
    removeMark(Mark);
}

void fenceAtomicReadModifyWrites(Module &M) {
  SmallVector<AtomicRMWInst *, 8> RMWs;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        if (RMW->getOrdering() != AtomicOrdering::Monotonic &&
            RMW->getOrdering() != AtomicOrdering::Unordered)
          RMWs.push_back(RMW);

  for (AtomicRMWInst *RMW : RMWs) {
    AtomicOrdering O = RMW->getOrdering();
    assert((isAcquireOrStronger(O) || isReleaseOrStronger(O)) &&
           "only ordered read-modify-writes are collected");
    SyncScope::ID Scope = RMW->getSyncScopeID();
    IRBuilder<> B(RMW);
    if (O == AtomicOrdering::SequentiallyConsistent)
      B.CreateFence(AtomicOrdering::SequentiallyConsistent, Scope);
    else if (isReleaseOrStronger(O))
      B.CreateFence(AtomicOrdering::Release, Scope);
    if (isAcquireOrStronger(O)) {
      B.SetInsertPoint(RMW->getNextNode());
      B.CreateFence(AtomicOrdering::Acquire, Scope);
    }
    RMW->setOrdering(AtomicOrdering::Monotonic);
    ++NumFencedRMWs;
  }
}

} // namespace mstage
