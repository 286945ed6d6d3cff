//===- LibdeviceAsm.cpp - libdevice's inline asm as NVVM intrinsics -------===//
#include "transforms/LibdeviceAsm.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-libdevice-asm"

STATISTIC(NumRcp, "libdevice's rcp.approx.ftz.f32 asm made an intrinsic");

// An expert switch (MSTAGE_LLVM_ARGS) for measuring the change.
static cl::opt<bool> Enabled(
    "mstage-rcp-intrinsic", cl::init(true), cl::Hidden,
    cl::desc("Make libdevice's inline asm rcp.approx.ftz.f32 an intrinsic"));

namespace mstage {

// Whether C is "rcp.approx.ftz.f32 $0,$1;" of one float.
static bool isRcpAsm(const CallInst &C) {
  const auto *Asm = dyn_cast<InlineAsm>(C.getCalledOperand());
  return Asm && !Asm->hasSideEffects() &&
         Asm->getAsmString() == "rcp.approx.ftz.f32 $0,$1;" &&
         Asm->getConstraintString() == "=f,f" && C.arg_size() == 1 &&
         C.getType()->isFloatTy();
}

unsigned useRcpIntrinsic(Module &M) {
  if (!Enabled)
    return 0;
  SmallVector<CallInst *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *C = dyn_cast<CallInst>(&I); C && isRcpAsm(*C))
        Calls.push_back(C);
  if (Calls.empty())
    return 0;
  Function *Rcp =
      Intrinsic::getOrInsertDeclaration(&M, Intrinsic::nvvm_rcp_approx_ftz_f);
  // An approximate reciprocal has no side effect and cannot trap: LICM may
  // hoist it out of a loop's conditional blocks.
  Rcp->addFnAttr(Attribute::Speculatable);
  for (CallInst *C : Calls) {
    CallInst *New =
        CallInst::Create(Rcp, {C->getArgOperand(0)}, "", C->getIterator());
    New->takeName(C);
    New->setDebugLoc(C->getDebugLoc());
    C->replaceAllUsesWith(New);
    C->eraseFromParent();
  }
  NumRcp += Calls.size();
  return Calls.size();
}

} // namespace mstage
