//===- CaptureInMemory.cpp - Kernel parameters too large for .param -------===//
#include "transforms/CaptureInMemory.h"
#include "formats/AotImage.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

#define DEBUG_TYPE "mstage-capture-in-memory"

STATISTIC(NumParamsMoved, "Kernel parameters moved to device memory");
STATISTIC(NumWrittenCopies, "Moved parameters copied per thread (written)");

namespace mstage {
namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

constexpr uint64_t SlotAlign = 16;

// Whether the memory P points to may be written through it (or through a
// pointer derived from it), following it into the functions it is passed
// to. A pointer that escapes (stored, converted to an integer, passed to a
// declaration) may be written.
bool mayWriteThrough(Argument &P) {
  SmallVector<const Value *, 16> Work{&P};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Us = U.getUser();
      if (isa<LoadInst>(Us) || isa<ICmpInst>(Us))
        continue;
      if (isa<GetElementPtrInst>(Us) || isa<BitCastInst>(Us) ||
          isa<AddrSpaceCastInst>(Us) || isa<PHINode>(Us) ||
          isa<SelectInst>(Us)) {
        Work.push_back(Us);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(Us);
      if (!CB)
        return true; // a store, ptrtoint, ...
      if (const auto *II = dyn_cast<IntrinsicInst>(CB)) {
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
        if (const auto *MT = dyn_cast<MemTransferInst>(II))
          if (&U == &MT->getRawSourceUse() && MT->getRawDest() != V)
            continue;
      }
      if (!CB->isArgOperand(&U))
        return true;
      unsigned N = CB->getArgOperandNo(&U);
      // Passed byval, the callee gets a copy of its own (x86-64 passes a
      // struct argument so); else it reads only and keeps no pointer.
      if (CB->isByValArgument(N) ||
          (CB->onlyReadsMemory(N) && CB->doesNotCapture(N)))
        continue;
      const Function *F = CB->getCalledFunction();
      if (!F || F->isDeclaration() || F->isVarArg() || N >= F->arg_size())
        return true;
      Work.push_back(F->getArg(N));
    }
  }
  return false;
}

} // namespace

uint64_t kernelParamLimit(StringRef Arch) {
  // The PTX version NVPTX emits for Arch: 8.1 or later from sm_100 on.
  return archNumber(Arch) >= 100 ? ParamLimitPtx81 : ParamLimitBeforePtx81;
}

uint64_t paramSpaceBytes(ArrayRef<uint32_t> Sizes, uint64_t ExtraBytes) {
  uint64_t Total = 0;
  for (uint32_t S : Sizes)
    Total += alignTo(S, SlotAlign);
  return Total + ExtraBytes;
}

uint64_t paramsInMemory(ArrayRef<uint32_t> Sizes, uint64_t ExtraBytes,
                        uint64_t Limit) {
  uint64_t Total = paramSpaceBytes(Sizes, ExtraBytes);
  if (Total <= Limit)
    return 0;
  SmallVector<unsigned, 8> Order;
  for (unsigned I = 0; I < Sizes.size() && I < 64; ++I)
    if (Sizes[I] > SlotAlign)
      Order.push_back(I);
  // Largest first; the lower index first among equals, so that every
  // caller chooses alike.
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return Sizes[A] > Sizes[B]; });
  uint64_t Mask = 0;
  for (unsigned I : Order) {
    if (Total <= Limit)
      break;
    assert(Sizes[I] > SlotAlign && "a moved parameter leaves a pointer");
    Total -= alignTo(Sizes[I], SlotAlign) - SlotAlign; // now a pointer
    Mask |= uint64_t(1) << I;
  }
  return Mask;
}

uint64_t bytesInMemory(ArrayRef<uint32_t> Sizes, uint64_t Mask) {
  uint64_t Bytes = 0;
  for (unsigned I = 0; I < Sizes.size() && I < 64; ++I)
    if (Mask >> I & 1)
      Bytes += Sizes[I];
  return Bytes;
}

Expected<uint64_t> moveLargeParams(Function &Kernel, StringRef Arch,
                                   uint64_t StagedBytes, unsigned NumParams) {
  const DataLayout &DL = Kernel.getDataLayout();
  SmallVector<uint32_t, 8> Sizes;
  for (unsigned I = 0; I < NumParams && I < Kernel.arg_size(); ++I) {
    Type *Ty = Kernel.getParamByValType(I);
    Sizes.push_back(
        uint32_t(DL.getTypeAllocSize(Ty ? Ty : Kernel.getArg(I)->getType())));
  }
  uint64_t Mask = paramsInMemory(Sizes, StagedBytes, kernelParamLimit(Arch));
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Kernel.getName() << ": "
                    << paramSpaceBytes(Sizes, StagedBytes) << " bytes of "
                    << kernelParamLimit(Arch) << " for " << Arch
                    << ", moving mask 0x" << Twine::utohexstr(Mask) << "\n");
  if (Mask)
    if (Error E = moveParamsToMemory(Kernel, Mask))
      return std::move(E);
  return Mask;
}

Error moveParamsToMemory(Function &F, uint64_t Mask) {
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getDataLayout();
  auto Moved = [&](unsigned I) { return I < 64 && (Mask >> I & 1); };
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (Moved(I)) {
      if (!F.getArg(I)->hasByValAttr())
        return fail("parameter " + Twine(I) + " of kernel '" + F.getName() +
                    "' is not passed by value and cannot be moved to memory");
      Params[I] = PointerType::get(Ctx, /*global*/ 1);
    }
  auto *Ty = FunctionType::get(F.getReturnType(), Params, F.isVarArg());
  Function *NF = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(), "",
                                  F.getParent());
  NF->copyAttributesFrom(&F);
  NF->copyMetadata(&F, 0);

  // Per moved parameter: its bytes, alignment, and whether it is written.
  struct MovedParam {
    unsigned Index;
    Type *Ty;
    Align A;
    bool Written;
  };
  SmallVector<MovedParam, 2> Moves;
  AttributeList AL = NF->getAttributes();
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    if (!Moved(I))
      continue;
    MovedParam P{I, F.getParamByValType(I), F.getParamAlign(I).valueOrOne(),
                 mayWriteThrough(*F.getArg(I))};
    assert(P.Ty && "only byval parameters are moved, checked above");
    Moves.push_back(P);
    ++NumParamsMoved;
    AttrBuilder AB(Ctx);
    AB.addAttribute(Attribute::NoAlias);
    AB.addAttribute(Attribute::NonNull);
    AB.addAttribute(Attribute::NoUndef);
    AB.addAlignmentAttr(P.A);
    AB.addDereferenceableAttr(DL.getTypeAllocSize(P.Ty));
    // A read-only parameter that nothing else aliases: its loads are
    // ld.global.nc, and the optimizer may hoist and fold them.
    if (!P.Written)
      AB.addAttribute(Attribute::ReadOnly);
    AL = AL.removeParamAttributes(Ctx, I).addParamAttributes(Ctx, I, AB);
  }
  NF->setAttributes(AL);
  NF->splice(NF->end(), &F);
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (!Moved(I))
      F.getArg(I)->replaceAllUsesWith(NF->getArg(I));
  IRBuilder<> B(&*NF->getEntryBlock().getFirstInsertionPt());
  for (const MovedParam &P : Moves) {
    Argument *Arg = NF->getArg(P.Index);
    Arg->setName(F.getArg(P.Index)->getName() + ".global");
    Value *At = B.CreateAddrSpaceCast(Arg, F.getArg(P.Index)->getType());
    if (P.Written) {
      // As byval: each thread writes its own copy.
      Value *Copy = B.CreateAlloca(P.Ty, DL.getAllocaAddrSpace());
      cast<AllocaInst>(Copy)->setAlignment(P.A);
      Copy = B.CreatePointerBitCastOrAddrSpaceCast(Copy, At->getType());
      B.CreateMemCpy(Copy, P.A, At, P.A, DL.getTypeAllocSize(P.Ty));
      At = Copy;
      ++NumWrittenCopies;
    }
    F.getArg(P.Index)->replaceAllUsesWith(At);
  }
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (!Moved(I))
      NF->getArg(I)->takeName(F.getArg(I));
  F.replaceAllUsesWith(NF);
  NF->takeName(&F);
  F.eraseFromParent();
  return Error::success();
}

} // namespace mstage
