//===- DeviceThrows.cpp - The C++ library's throws as device traps --------===//
#include "transforms/DeviceThrows.h"
#include "transforms/DeviceAssertFail.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-throws"

STATISTIC(NumThrows, "Throwing calls made device traps");

namespace mstage {

bool isThrowingFunction(StringRef Name) {
  return Name == "__cxa_allocate_exception" || Name == "__cxa_throw" ||
         Name == "__cxa_rethrow" || Name == "__cxa_bad_cast" ||
         Name == "__cxa_bad_typeid" || Name == "_ZSt9terminatev" ||
         (Name.starts_with("_ZSt") && Name.contains("__throw_"));
}

void lowerThrows(Module &M) {
  SmallVector<Function *, 4> Throwing;
  for (Function &F : M)
    if (F.isDeclaration() && isThrowingFunction(F.getName()) && !F.use_empty())
      Throwing.push_back(&F);
  if (Throwing.empty())
    return;
  for (Function *F : Throwing) {
    // std::__throw_bad_variant_access(char const*) says what was thrown;
    // __cxa_allocate_exception only that something was.
    std::string What = demangle(F->getName());
    if (F->getName().starts_with("__cxa_allocate_exception"))
      What = "an exception";
    std::string Message = "mstage: kernel code threw " + What +
                          " (exceptions stop the launch on the GPU)";
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledOperand() != F)
        continue;
      CallInst *Fail = createAssertFail(CI, *CI, Message, "mstage.throw");
      Fail->setDebugLoc(CI->getDebugLoc());
      // Nothing after the throw runs: the rest of the block goes.
      if (!CI->getType()->isVoidTy())
        CI->replaceAllUsesWith(PoisonValue::get(CI->getType()));
      changeToUnreachable(CI);
      ++NumThrows;
    }
  }
  for (Function *F : Throwing)
    if (F->use_empty())
      F->eraseFromParent();
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << NumThrows << " throws\n");
}

} // namespace mstage
