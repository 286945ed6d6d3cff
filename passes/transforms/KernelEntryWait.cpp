//===- KernelEntryWait.cpp - griddepcontrol at a kernel's entry -----------===//
#include "transforms/KernelEntryWait.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <cassert>

using namespace llvm;

namespace mstage {

void addKernelEntryWait(Function &Kernel) {
  assert(!Kernel.isDeclaration() && "the kernel is defined");
  assert(Kernel.getParent()->getTargetTriple().isNVPTX() &&
         "griddepcontrol is NVPTX's");
  BasicBlock &Entry = Kernel.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> B(&Entry, At);
  B.CreateIntrinsic(B.getVoidTy(), Intrinsic::nvvm_griddepcontrol_wait, {});
  B.CreateIntrinsic(B.getVoidTy(),
                    Intrinsic::nvvm_griddepcontrol_launch_dependents, {});
}

} // namespace mstage
