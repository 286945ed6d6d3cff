//===- DeviceAtomics.cpp - Keep the memory order of read-modify-writes ----===//
#include "DeviceAtomics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

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
  }
}

} // namespace mstage
