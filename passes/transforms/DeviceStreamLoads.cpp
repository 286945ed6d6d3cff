//===- DeviceStreamLoads.cpp - Streaming loads for the target -------------===//
#include "transforms/DeviceStreamLoads.h"
#include "formats/AotImage.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-stream-loads"

STATISTIC(NumHintedLoads, "Streaming loads with cache hints (sm_89 and later)");
STATISTIC(NumPlainLoads, "Streaming loads as invariant loads");

namespace mstage {

void lowerStreamLoads(Module &M, const TargetMachine &TM) {
  Function *F = M.getFunction(StreamLoadName);
  if (!F)
    return;
  // NVPTX emits the lowest .version an architecture needs; the hints need
  // 7.4, which sm_80 and sm_86 (7.0, 7.1) do not get.
  const bool Hints = archNumber(TM.getTargetCPU()) >= 89;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << TM.getTargetCPU()
                    << (Hints ? ": with" : ": without") << " cache hints\n");
  LLVMContext &Ctx = M.getContext();
  for (User *U : make_early_inc_range(F->users())) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledFunction() != F)
      continue;
    assert(CI->getType()->isVectorTy() &&
           CI->getType()->getPrimitiveSizeInBits() == 128 &&
           "a streaming load is of 16 bytes, as the asm's four u32");
    IRBuilder<> B(CI);
    Value *Ptr = B.CreateAddrSpaceCast(CI->getArgOperand(0), B.getPtrTy(1));
    Value *V;
    if (Hints) {
      Type *I32 = B.getInt32Ty();
      auto *Ret = StructType::get(Ctx, {I32, I32, I32, I32});
      auto *Asm = InlineAsm::get(
          FunctionType::get(Ret, {B.getPtrTy(1)}, false),
          "ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {$0, $1, $2, $3}, "
          "[$4];",
          "=r,=r,=r,=r,l", /*hasSideEffects=*/false);
      CallInst *Load = B.CreateCall(Asm, {Ptr});
      // The memory does not change during the launch: the load may move or
      // go, as a load marked invariant may.
      Load->setOnlyReadsMemory();
      Load->setDoesNotThrow();
      V = PoisonValue::get(CI->getType());
      for (unsigned I = 0; I < 4; ++I)
        V = B.CreateInsertElement(V, B.CreateExtractValue(Load, I), I);
    } else {
      LoadInst *L = B.CreateAlignedLoad(CI->getType(), Ptr, Align(16));
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
      V = L;
    }
    CI->replaceAllUsesWith(V);
    CI->eraseFromParent();
    ++(Hints ? NumHintedLoads : NumPlainLoads);
  }
  if (F->use_empty())
    F->eraseFromParent();
}

} // namespace mstage
