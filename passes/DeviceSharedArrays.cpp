//===- DeviceSharedArrays.cpp - shared_array declarations as .shared globals =//
#include "DeviceSharedArrays.h"
#include "DeviceOptimizer.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <tuple>

using namespace llvm;

namespace mstage {

static constexpr const char *BuiltinName = "__mstage_shared_array";

// Inlining rounds: one per function between a declaration and the builtin
// (the constructor, and what it calls); more means recursion.
static constexpr unsigned MaxInlineRounds = 8;

// (bytes, align, file, line, column); the file is a constant string.
static bool operandsConstant(const CallInst &CI) {
  StringRef File;
  return isa<ConstantInt>(CI.getArgOperand(0)) &&
         isa<ConstantInt>(CI.getArgOperand(1)) &&
         getConstantStringInfo(CI.getArgOperand(2), File) &&
         isa<ConstantInt>(CI.getArgOperand(3)) &&
         isa<ConstantInt>(CI.getArgOperand(4));
}

// Turns the inlined parameters' stack slots back into the constants the
// declaration passed.
static void simplify(Function &F) {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  runFunctionPasses(F, FPM);
}

// Inlines the functions that pass their own parameters on to the builtin
// into their callers, until every call's operands are constants or nothing
// more can be inlined.
static void inlineToDeclarations(Function &Builtin) {
  for (unsigned Round = 0; Round < MaxInlineRounds; ++Round) {
    SetVector<Function *> Passing;
    for (User *U : Builtin.users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getCalledFunction() == &Builtin && !operandsConstant(*CI))
          Passing.insert(CI->getFunction());
    SetVector<Function *> Callers;
    for (Function *F : Passing) {
      for (User *U : make_early_inc_range(F->users())) {
        auto *CB = dyn_cast<CallBase>(U);
        if (!CB || CB->getCalledFunction() != F || CB->getFunction() == F)
          continue;
        Function *Caller = CB->getFunction();
        InlineFunctionInfo IFI;
        if (InlineFunction(*CB, IFI).isSuccess())
          Callers.insert(Caller);
      }
      if (F->use_empty() && F->hasLocalLinkage())
        F->eraseFromParent();
    }
    if (Callers.empty())
      return;
    for (Function *F : Callers)
      simplify(*F);
  }
}

bool isSharedArrayGlobal(const GlobalVariable &GV) {
  // Internal, not !isDeclaration(): a lazily read module has not read the
  // initializers yet.
  return GV.getAddressSpace() == 3 && GV.hasLocalLinkage() &&
         GV.getName().starts_with(SharedArrayPrefix);
}

void lowerSharedArrays(Module &M) {
  Function *Builtin = M.getFunction(BuiltinName);
  if (!Builtin)
    return;
  inlineToDeclarations(*Builtin);

  LLVMContext &Ctx = M.getContext();
  std::map<std::tuple<std::string, uint64_t, uint64_t, uint64_t, uint64_t>,
           GlobalVariable *>
      Arrays;
  for (User *U : make_early_inc_range(Builtin->users())) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledFunction() != Builtin)
      continue;
    IRBuilder<> B(CI);
    Value *Address = PoisonValue::get(CI->getType());
    if (!operandsConstant(*CI)) {
      Ctx.diagnose(DiagnosticInfoUnsupported(
          *CI->getFunction(),
          "mstage: a shared_array whose place or size is not known at "
          "compile time (made through a recursive function, or by a "
          "constructor that could not be inlined); declare it as a local "
          "variable of kernel code",
          CI->getDebugLoc()));
    } else {
      auto Int = [&](unsigned I) {
        return cast<ConstantInt>(CI->getArgOperand(I))->getZExtValue();
      };
      StringRef File;
      getConstantStringInfo(CI->getArgOperand(2), File);
      uint64_t Bytes = Int(0), Alignment = Int(1), Line = Int(3),
               Column = Int(4);
      GlobalVariable *&GV =
          Arrays[{File.str(), Line, Column, Bytes, Alignment}];
      if (!GV) {
        auto *Ty = ArrayType::get(B.getInt8Ty(), Bytes);
        // Shared memory has no initializer: undef, as ptxas requires.
        GV = new GlobalVariable(
            M, Ty, false, GlobalValue::InternalLinkage, UndefValue::get(Ty),
            Twine(SharedArrayPrefix) + "L" + Twine(Line) + "_C" + Twine(Column),
            nullptr, GlobalValue::NotThreadLocal, 3);
        GV->setAlignment(Align(isPowerOf2_64(Alignment) ? Alignment : 1));
      }
      Address = B.CreateAddrSpaceCast(GV, CI->getType());
    }
    CI->replaceAllUsesWith(Address);
    CI->eraseFromParent();
  }
  if (Builtin->use_empty())
    Builtin->eraseFromParent();
}

uint64_t staticSharedBytes(const Module &M) {
  uint64_t Bytes = 0;
  for (const GlobalVariable &GV : M.globals())
    if (isSharedArrayGlobal(GV))
      Bytes = alignTo(Bytes, GV.getAlign().valueOrOne()) +
              M.getDataLayout().getTypeAllocSize(GV.getValueType());
  return Bytes;
}

} // namespace mstage
