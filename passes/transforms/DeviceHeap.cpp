//===- DeviceHeap.cpp - operator new and delete on the device heap --------===//
#include "transforms/DeviceHeap.h"
#include "transforms/DeviceAssertFail.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-heap"

STATISTIC(NumNews, "operator new calls mapped to malloc");
STATISTIC(NumDeletes, "operator delete calls mapped to free");

namespace mstage {
namespace {

enum class Kind { None, New, NewNothrow, Delete };

// The global operator new and delete of the Itanium ABI, on 64-bit targets.
Kind kindOf(StringRef Name) {
  return StringSwitch<Kind>(Name)
      .Cases({"_Znwm", "_Znam"}, Kind::New)
      .Cases({"_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t"}, Kind::NewNothrow)
      .Cases({"_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvRKSt9nothrow_t",
              "_ZdaPvRKSt9nothrow_t"},
             Kind::Delete)
      .Default(Kind::None);
}

// Stops the launch when Malloc's result is null: __assert_fail with the
// call's place.
void trapWhenNull(CallInst &Malloc) {
  IRBuilder<> B(Malloc.getNextNode());
  Value *IsNull = B.CreateIsNull(&Malloc);
  Instruction *Then = SplitBlockAndInsertIfThen(
      IsNull, B.GetInsertPoint(), /*Unreachable=*/true,
      MDBuilder(Malloc.getContext()).createUnlikelyBranchWeights());
  createAssertFail(Then, Malloc, HeapExhaustedMessage, "mstage.heap");
}

} // namespace

void lowerDeviceHeap(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  auto *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Function *, 4> Operators;
  for (Function &F : M)
    if (F.isDeclaration() && kindOf(F.getName()) != Kind::None)
      Operators.push_back(&F);
  if (Operators.empty())
    return;
  FunctionCallee Malloc =
      M.getOrInsertFunction("malloc", FunctionType::get(Ptr, {I64}, false));
  FunctionCallee Free = M.getOrInsertFunction(
      "free", FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  for (Function *F : Operators) {
    Kind K = kindOf(F->getName());
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledOperand() != F)
        continue;
      IRBuilder<> B(CI);
      if (K == Kind::Delete) {
        B.CreateCall(Free, {CI->getArgOperand(0)});
        ++NumDeletes;
      } else {
        CallInst *P = B.CreateCall(Malloc, {CI->getArgOperand(0)});
        P->setDebugLoc(CI->getDebugLoc());
        CI->replaceAllUsesWith(P);
        if (K == Kind::New)
          trapWhenNull(*P);
        ++NumNews;
      }
      CI->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  // The host's object, which only chose the nothrow form.
  if (GlobalVariable *Nothrow = M.getNamedGlobal("_ZSt7nothrow"))
    if (Nothrow->use_empty())
      Nothrow->eraseFromParent();
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << NumNews << " new, " << NumDeletes
                    << " delete\n");
}

} // namespace mstage
