//===- GenericKernel.cpp - A kernel whose staged values come at run time --===//
#include "transforms/GenericKernel.h"
#include "formats/AotImage.h"
#include "transforms/StageSlicing.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-generic-kernel"

STATISTIC(NumGenericKernels, "Kernels given a staged-values parameter");
STATISTIC(NumReaders, "Functions given the staged-values pointer");
STATISTIC(NumPlaceholdersRead, "Stage placeholders read from the parameter");

namespace mstage {
namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// F with one more parameter, a pointer, at the end; F's body moves there
// and F is left empty (its uses are the caller's to redirect).
Function *addTrailingPointer(Function &F) {
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  Params.push_back(PointerType::get(F.getContext(), 0));
  auto *Ty = FunctionType::get(F.getReturnType(), Params, F.isVarArg());
  Function *NF = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(), "",
                                  F.getParent());
  NF->copyAttributesFrom(&F);
  NF->copyMetadata(&F, 0);
  NF->splice(NF->end(), &F);
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    F.getArg(I)->replaceAllUsesWith(NF->getArg(I));
    NF->getArg(I)->takeName(F.getArg(I));
  }
  NF->getArg(F.arg_size())->setName("staged");
  NF->takeName(&F);
  return NF;
}

// Lowers the alignment of every access through P to 16, the staged
// parameter's: a site may have been placed with a larger one.
void capAlignment(Value *P) {
  SmallVector<Value *, 8> Work{P};
  SmallPtrSet<Value *, 8> Seen;
  const Align Max(AotImageAlign);
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U))
        LI->setAlignment(std::min(LI->getAlign(), Max));
      else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == V)
          SI->setAlignment(std::min(SI->getAlign(), Max));
      } else if (auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawSource() == V)
          MT->setSourceAlignment(
              std::min(MT->getSourceAlign().valueOrOne(), Max));
        if (MT->getRawDest() == V)
          MT->setDestAlignment(std::min(MT->getDestAlign().valueOrOne(), Max));
      } else if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) ||
                 isa<PHINode>(U) || isa<SelectInst>(U)) {
        Work.push_back(U);
      }
    }
  }
}

} // namespace

Error makeGenericKernel(Module &M, StringRef KernelName,
                        ArrayRef<uint32_t> SiteSizes) {
  uint64_t Bytes = stagedParamSize(SiteSizes);
  if (Bytes == 0)
    return Error::success();
  Function *Kernel = M.getFunction(KernelName);
  if (!Kernel || Kernel->isDeclaration() || !Kernel->use_empty())
    return fail("the device module has no kernel '" + KernelName + "'");

  // The placeholders the optimizer kept, with their offsets.
  MapVector<GlobalVariable *, uint64_t> Offsets;
  uint64_t Offset = 0;
  for (size_t I = 0; I < SiteSizes.size(); ++I) {
    if (GlobalVariable *GV =
            M.getNamedGlobal((StagePlaceholderPrefix + Twine(I)).str())) {
      auto *Ty = dyn_cast<ArrayType>(GV->getValueType());
      if (!Ty || Ty->getNumElements() != SiteSizes[I])
        return fail("stage site " + Twine(I) + " does not hold " +
                    Twine(SiteSizes[I]) + " bytes");
      Offsets[GV] = Offset;
    }
    Offset += alignTo(SiteSizes[I], AotImageAlign);
  }
  if (M.getNamedGlobal(
          (StagePlaceholderPrefix + Twine(SiteSizes.size())).str()))
    return fail("the device module has more stage sites than its kernel");

  // Reads through constant expressions become instructions, so that each
  // read is in a function that can be given the parameter.
  SmallVector<Constant *, 4> Globals;
  for (auto &[GV, Off] : Offsets)
    Globals.push_back(GV);
  convertUsersOfConstantsToInstructions(Globals);

  // The functions that read a staged value, and those that call them.
  SetVector<Function *> Readers;
  for (auto &[GV, Off] : Offsets)
    for (User *U : GV->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return fail("a global's initializer refers to a staged value");
      Readers.insert(I->getFunction());
    }
  for (size_t I = 0; I < Readers.size(); ++I) {
    Function *F = Readers[I];
    if (F == Kernel)
      continue;
    for (User *U : F->users()) {
      auto *CB = dyn_cast<CallInst>(U);
      if (!CB || CB->getCalledOperand() != F)
        return fail("'" + F->getName() +
                    "' reads a staged value and is called indirectly");
      Readers.insert(CB->getFunction());
    }
  }

  // The kernel gets the parameter, the other readers a pointer to it.
  LLVMContext &Ctx = M.getContext();
  DenseMap<Function *, Function *> NewOf;
  for (Function *F : Readers)
    NewOf[F] = addTrailingPointer(*F);
  if (!NewOf.count(Kernel))
    NewOf[Kernel] = addTrailingPointer(*Kernel);
  Function *NewKernel = NewOf[Kernel];
  unsigned StagedArg = NewKernel->arg_size() - 1;
  NewKernel->addParamAttr(
      StagedArg, Attribute::getWithByValType(
                     Ctx, ArrayType::get(Type::getInt8Ty(Ctx), Bytes)));
  NewKernel->addParamAttr(
      StagedArg, Attribute::getWithAlignment(Ctx, Align(AotImageAlign)));
  NewKernel->addParamAttr(StagedArg, Attribute::NoAlias);

  // Calls pass their caller's pointer on.
  for (auto &[Old, New] : NewOf) {
    if (Old == Kernel)
      continue;
    for (User *U : make_early_inc_range(Old->users())) {
      auto *CB = cast<CallInst>(U);
      Function *Caller = CB->getFunction();
      SmallVector<Value *, 8> Args(CB->args());
      Args.push_back(Caller->getArg(Caller->arg_size() - 1));
      SmallVector<OperandBundleDef, 2> Bundles;
      CB->getOperandBundlesAsDefs(Bundles);
      auto *NewCall =
          CallInst::Create(New, Args, Bundles, "", CB->getIterator());
      NewCall->takeName(CB);
      NewCall->setCallingConv(CB->getCallingConv());
      NewCall->setAttributes(CB->getAttributes());
      NewCall->setTailCallKind(CB->getTailCallKind());
      NewCall->setDebugLoc(CB->getDebugLoc());
      CB->replaceAllUsesWith(NewCall);
      CB->eraseFromParent();
    }
  }
  for (auto &[Old, New] : NewOf) {
    assert(Old->use_empty() && "every call of a reader calls its new version");
    Old->eraseFromParent();
  }
  ++NumGenericKernels;
  NumReaders += NewOf.size();
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << KernelName << ": " << Bytes
                    << " bytes of staged values, read in " << NewOf.size()
                    << " functions\n");

  // Each read becomes a read of the parameter at the site's offset.
  for (auto &[GV, Off] : Offsets) {
    assert(Off < Bytes && "a site lies in the staged-values parameter");
    ++NumPlaceholdersRead;
    DenseMap<Function *, Value *> PtrIn;
    for (User *U : make_early_inc_range(GV->users())) {
      auto *I = cast<Instruction>(U);
      Function *F = I->getFunction();
      Value *&P = PtrIn[F];
      if (!P) {
        IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
        P = B.CreateConstInBoundsGEP1_64(Type::getInt8Ty(Ctx),
                                         F->getArg(F->arg_size() - 1), Off,
                                         GV->getName());
      }
      I->replaceUsesOfWith(GV, P);
    }
    for (auto &[F, P] : PtrIn)
      capAlignment(P);
    GV->eraseFromParent();
  }
  return Error::success();
}

} // namespace mstage
