//===- DeviceSharedArrays.cpp - shared_array declarations as .shared globals =//
#include "transforms/DeviceSharedArrays.h"
#include "formats/KernelTags.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/Diagnostics.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "mstage-shared-arrays"

STATISTIC(NumSharedArrays,
          "shared_array declarations lowered to .shared globals");
STATISTIC(NumSharedGlobals, ".shared globals made for shared_arrays");
STATISTIC(NumInlinedForSharedArrays,
          "Calls inlined to make shared_array operands constant");

namespace mstage {

static constexpr const char *BuiltinName = "__mstage_shared_array";

// Inlining rounds: one per function between a declaration and the builtin
// (the constructor, and what it calls); more means recursion.
static constexpr unsigned MaxInlineRounds = 8;

// What the shared_array constructor is annotated with (shared_array.hpp).
static constexpr StringLiteral ConstructorAnnotation = "mstage.shared_array";

// (bytes, align, file, line, column, site); the file is a constant string.
static bool operandsConstant(const CallInst &CI) {
  StringRef File;
  return CI.arg_size() == 6 && isa<ConstantInt>(CI.getArgOperand(0)) &&
         isa<ConstantInt>(CI.getArgOperand(1)) &&
         getConstantStringInfo(CI.getArgOperand(2), File) &&
         isa<ConstantInt>(CI.getArgOperand(3)) &&
         isa<ConstantInt>(CI.getArgOperand(4)) &&
         isa<ConstantInt>(CI.getArgOperand(5));
}

void numberSharedArrayDeclarations(Module &M) {
  uint64_t Site = 0;
  for (auto &[F, Notes] : readAnnotations(M)) {
    if (!is_contained(Notes, ConstructorAnnotation) || F->arg_empty())
      continue;
    unsigned Last = F->arg_size() - 1;
    auto *SiteTy = dyn_cast<IntegerType>(F->getArg(Last)->getType());
    if (!SiteTy)
      continue;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledFunction() == F)
        CB->setArgOperand(Last, ConstantInt::get(SiteTy, ++Site));
  }
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
        if (InlineFunction(*CB, IFI).isSuccess()) {
          Callers.insert(Caller);
          ++NumInlinedForSharedArrays;
        }
      }
      if (F->use_empty() && F->hasLocalLinkage())
        F->eraseFromParent();
    }
    if (Callers.empty())
      return;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": round " << Round << " inlined into "
                      << Callers.size() << " functions\n");
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

  std::map<
      std::tuple<std::string, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>,
      GlobalVariable *>
      Arrays;
  // The arrays named after each place (declarations of one macro expansion
  // share it): the first is _L<line>_C<column>, the next ones _2, _3, ...
  StringMap<unsigned> Named;
  for (User *U : make_early_inc_range(Builtin->users())) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledFunction() != Builtin)
      continue;
    IRBuilder<> B(CI);
    Value *Address = PoisonValue::get(CI->getType());
    if (!operandsConstant(*CI)) {
      reportErrorIn(*CI->getFunction(),
                    "a shared_array whose place or size is not known at "
                    "compile time (made through a recursive function, or by a "
                    "constructor that could not be inlined); declare it as a "
                    "local variable of kernel code",
                    CI->getDebugLoc());
    } else {
      auto Int = [&](unsigned I) {
        return cast<ConstantInt>(CI->getArgOperand(I))->getZExtValue();
      };
      StringRef File;
      getConstantStringInfo(CI->getArgOperand(2), File);
      uint64_t Bytes = Int(0), Alignment = Int(1), Line = Int(3),
               Column = Int(4), Site = Int(5);
      GlobalVariable *&GV =
          Arrays[{File.str(), Line, Column, Site, Bytes, Alignment}];
      if (!GV) {
        auto *Ty = ArrayType::get(B.getInt8Ty(), Bytes);
        std::string Name = (Twine(SharedArrayPrefix) + "L" + Twine(Line) +
                            "_C" + Twine(Column))
                               .str();
        if (unsigned N = ++Named[Name]; N > 1)
          Name += "_" + std::to_string(N);
        // Shared memory has no initializer: undef, as ptxas requires.
        GV = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                                UndefValue::get(Ty), Name, nullptr,
                                GlobalValue::NotThreadLocal, 3);
        GV->setAlignment(Align(isPowerOf2_64(Alignment) ? Alignment : 1));
        assert(isSharedArrayGlobal(*GV) &&
               "staticSharedBytes counts every global made here");
        LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << GV->getName() << ", "
                          << Bytes << " bytes\n");
        ++NumSharedGlobals;
      }
      Address = B.CreateAddrSpaceCast(GV, CI->getType());
      ++NumSharedArrays;
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
