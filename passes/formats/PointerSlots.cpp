//===- PointerSlots.cpp - Pointers a kernel reads from its parameters -----===//
#include "formats/PointerSlots.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
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

std::vector<PointerSlot> findPointerSlots(const Function &Kernel) {
  std::vector<PointerSlot> Slots;
  for (const Instruction &I : instructions(Kernel))
    if (auto S = pointerSlotOf(I))
      Slots.push_back(*S);
  llvm::sort(Slots);
  Slots.erase(std::unique(Slots.begin(), Slots.end()), Slots.end());
  return Slots;
}

} // namespace mstage
