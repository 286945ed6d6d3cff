//===- DevicePrintf.cpp - printf and assert in kernels, through CUDA ------===//
#include "transforms/DevicePrintf.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-lower-printf"

STATISTIC(NumPrintfs, "printf calls lowered to vprintf");
STATISTIC(NumRestored, "puts and putchar calls turned back into printf");
STATISTIC(NumAsserts, "Failed-assert calls lowered to __assertfail");

namespace mstage {

// The host compiler's library-call simplification turns printf("text\n")
// and printf("%s\n", s) into puts, and printf("c") and printf("%c", c) into
// putchar, which the device lacks: each becomes printf again, for the
// lowering to vprintf below.
static Error restorePrintf(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  for (StringRef Name : {"puts", "putchar"}) {
    Function *F = M.getFunction(Name);
    if (!F || F->use_empty())
      continue;
    bool IsPuts = Name == "puts";
    FunctionCallee Printf = M.getOrInsertFunction(
        "printf", FunctionType::get(Type::getInt32Ty(Ctx), {Ptr}, true));
    GlobalVariable *Format = nullptr;
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F || Call->arg_size() != 1)
        return createStringError(
            inconvertibleErrorCode(),
            (Name + " is used other than by a direct call").str());
      IRBuilder<> B(Call);
      if (!Format)
        Format = B.CreateGlobalString(IsPuts ? "%s\n" : "%c",
                                      IsPuts ? ".str.mstage.s_newline"
                                             : ".str.mstage.c");
      Value *Arg = Call->getArgOperand(0);
      CallInst *New = B.CreateCall(Printf, {Format, Arg});
      // puts gives a non-negative number, putchar its character.
      Call->replaceAllUsesWith(IsPuts ? static_cast<Value *>(New) : Arg);
      Call->eraseFromParent();
      ++NumRestored;
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  return Error::success();
}

Error lowerPrintf(Module &M) {
  if (Error E = restorePrintf(M))
    return E;
  Function *Printf = M.getFunction("printf");
  if (!Printf || Printf->use_empty())
    return Error::success();
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee Vprintf = M.getOrInsertFunction(
      "vprintf", FunctionType::get(Type::getInt32Ty(Ctx), {Ptr, Ptr}, false));

  for (User *U : make_early_inc_range(Printf->users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != Printf || Call->arg_size() == 0)
      return createStringError(inconvertibleErrorCode(),
                               "printf is used other than by a direct call");
    SmallVector<Type *, 8> Fields;
    for (Value *Arg : drop_begin(Call->args())) {
      Type *T = Arg->getType();
      if (!T->isIntegerTy() && !T->isFloatingPointTy() && !T->isPointerTy())
        return createStringError(
            inconvertibleErrorCode(),
            "printf in a kernel takes integers, floating-point values and "
            "pointers; an argument has another type");
      Fields.push_back(T);
    }
    // The buffer: a struct of the arguments, each at its natural alignment.
    Function &F = *Call->getFunction();
    IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
    Value *Buffer = ConstantPointerNull::get(Ptr);
    IRBuilder<> B(Call);
    if (!Fields.empty()) {
      assert(Fields.size() + 1 == Call->arg_size() &&
             "one buffer field per argument after the format");
      auto *Layout = StructType::get(Ctx, Fields);
      AllocaInst *A = Entry.CreateAlloca(Layout, nullptr, "printf.args");
      for (auto [I, Arg] : enumerate(drop_begin(Call->args())))
        B.CreateStore(Arg, B.CreateStructGEP(Layout, A, unsigned(I)));
      Buffer = A;
    }
    CallInst *New = B.CreateCall(Vprintf, {Call->getArgOperand(0), Buffer});
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": printf in " << F.getName() << " with "
                      << Fields.size() << " arguments\n");
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
    ++NumPrintfs;
  }
  if (Printf->use_empty())
    Printf->eraseFromParent();
  return Error::success();
}

void lowerAssert(Module &M) {
  Function *AssertFail = M.getFunction("__assert_fail");
  if (!AssertFail || AssertFail->use_empty())
    return;
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee CudaAssert = M.getOrInsertFunction(
      "__assertfail",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Ptr, Ptr, Type::getInt32Ty(Ctx), Ptr,
                         Type::getInt64Ty(Ctx)},
                        false));
  for (User *U : make_early_inc_range(AssertFail->users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->arg_size() != 4)
      continue;
    IRBuilder<> B(Call);
    // The last argument is the size of a character of the strings.
    B.CreateCall(CudaAssert,
                 {Call->getArgOperand(0), Call->getArgOperand(1),
                  Call->getArgOperand(2), Call->getArgOperand(3),
                  B.getInt64(1)});
    // __assert_fail does not return; on the device, the trap stops the launch.
    B.CreateIntrinsic(Intrinsic::trap, {});
    Call->eraseFromParent();
    ++NumAsserts;
  }
  if (AssertFail->use_empty())
    AssertFail->eraseFromParent();
}

} // namespace mstage
