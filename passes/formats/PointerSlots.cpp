//===- PointerSlots.cpp - Pointers a kernel reads from its parameters -----===//
#include "formats/PointerSlots.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

std::optional<PointerSlot> pointerSlotOf(const Value &V) {
  const auto *L = dyn_cast<LoadInst>(&V);
  if (const auto *I2P = dyn_cast<IntToPtrInst>(&V))
    L = dyn_cast<LoadInst>(I2P->getOperand(0));
  else if (!V.getType()->isPointerTy())
    return std::nullopt;
  if (!L || L->isVolatile() ||
      L->getModule()->getDataLayout().getTypeStoreSize(L->getType()) != 8)
    return std::nullopt;
  const DataLayout &DL = L->getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  const auto *Arg = dyn_cast<Argument>(Base);
  if (!Arg || !Arg->hasByValAttr() || Offset.isNegative() || !Offset.isIntN(32))
    return std::nullopt;
  return PointerSlot{Arg->getArgNo(), uint32_t(Offset.getZExtValue())};
}

static void sortUnique(std::vector<PointerSlot> &Slots) {
  llvm::sort(Slots);
  Slots.erase(std::unique(Slots.begin(), Slots.end()), Slots.end());
}

std::vector<PointerSlot> findPointerSlots(const Function &Kernel) {
  std::vector<PointerSlot> Slots;
  for (const Instruction &I : instructions(Kernel))
    if (auto S = pointerSlotOf(I))
      Slots.push_back(*S);
  sortUnique(Slots);
  return Slots;
}

// Whether the call writes through its operand U.
static bool callWrites(const CallBase &Call, const Use &U) {
  if (Call.isCallee(&U))
    return false;
  if (!Call.isArgOperand(&U))
    return true; // a bundle operand: not followed
  unsigned Arg = Call.getArgOperandNo(&U);
  if (isa<MemTransferInst>(Call))
    return Arg == 0; // the destination
  return !Call.onlyReadsMemory(Arg) && !Call.onlyReadsMemory();
}

bool mayWriteThrough(const Value &V) {
  SmallVector<const Value *, 16> Work = {&V};
  SmallPtrSet<const Value *, 16> Seen = {&V};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const Use &U : P->uses()) {
      const auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return true;
      if (isa<LoadInst>(I) || isa<ICmpInst>(I))
        continue;
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
          isa<SelectInst>(I)) {
        if (isa<PtrToIntInst>(I))
          return true; // integer arithmetic is not followed
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(I)) {
        if (callWrites(*Call, U))
          return true;
        continue;
      }
      // A store to it, an atomic, the pointer itself stored, or returned.
      return true;
    }
  }
  return false;
}

// Whether the parameter's bytes are used other than by loads at offsets
// (copied, passed on, their address kept): its pointers may then be loaded
// where no slot shows it, and written through.
static bool bytesEscape(const Argument &Param) {
  SmallVector<const Value *, 16> Work = {&Param};
  SmallPtrSet<const Value *, 16> Seen = {&Param};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (!isa<GetElementPtrInst>(U) && !isa<BitCastInst>(U) &&
          !isa<AddrSpaceCastInst>(U))
        return true;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

std::vector<PointerSlot> findWrittenPointerSlots(const Function &Kernel) {
  std::vector<PointerSlot> Slots;
  for (const Instruction &I : instructions(Kernel))
    if (auto S = pointerSlotOf(I);
        S && (mayWriteThrough(I) || bytesEscape(*Kernel.getArg(S->Param))))
      Slots.push_back(*S);
  sortUnique(Slots);
  return Slots;
}

} // namespace mstage
