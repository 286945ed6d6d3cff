//===- DeviceWmma.cpp - Tensor-core builtins as NVVM wmma intrinsics ------===//
#include "transforms/DeviceWmma.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-wmma"

STATISTIC(NumSharedWmma, "wmma loads and stores given the shared state space");

namespace mstage {

// Operand I of CI, a constant 0 or 1 (the header passes literals).
static bool flag(CallInst &CI, unsigned I) {
  auto *C = dyn_cast<ConstantInt>(CI.getArgOperand(I));
  assert(C && "the wmma builtins' layout and type operands are constants");
  return C && !C->isZero();
}

static Function *intrinsic(Module &M, const Twine &Name, ArrayRef<Type *> Tys) {
  Intrinsic::ID ID = Intrinsic::lookupIntrinsicID(Name.str());
  assert(ID != Intrinsic::not_intrinsic && "NVVM has every wmma variant used");
  return Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
}

// Loads N values of type Ty from Frag, one after another.
static void loadValues(IRBuilder<> &B, Value *Frag, Type *Ty, unsigned N,
                       SmallVectorImpl<Value *> &Out) {
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(B.CreateAlignedLoad(
        Ty, B.CreateConstGEP1_32(Ty, Frag, I),
        Align(std::min<uint64_t>(16, Ty->getPrimitiveSizeInBits() / 8))));
}

// Stores the members of the struct Result to Frag, one after another.
static void storeMembers(IRBuilder<> &B, Value *Result, Value *Frag) {
  auto *ST = cast<StructType>(Result->getType());
  for (unsigned I = 0; I < ST->getNumElements(); ++I) {
    Type *Ty = ST->getElementType(I);
    B.CreateAlignedStore(
        B.CreateExtractValue(Result, I), B.CreateConstGEP1_32(Ty, Frag, I),
        Align(std::min<uint64_t>(16, Ty->getPrimitiveSizeInBits() / 8)));
  }
}

Value *emitWmmaBuiltin(IRBuilder<> &B, StringRef Name, CallInst &CI) {
  if (!Name.starts_with("__mstage_wmma_"))
    return nullptr;
  Module &M = *CI.getModule();
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  auto Layout = [](bool Col) { return Col ? "col" : "row"; };
  // (frag, src, ldm, is_b, bf16, col_major)
  if (Name == "__mstage_wmma_load") {
    Function *F =
        intrinsic(M,
                  Twine("llvm.nvvm.wmma.m16n16k16.load.") +
                      (flag(CI, 3) ? "b" : "a") + "." + Layout(flag(CI, 5)) +
                      ".stride." + (flag(CI, 4) ? "bf16" : "f16"),
                  {Arg(1)->getType()});
    CallInst *Load = B.CreateCall(F, {Arg(1), Arg(2)});
    storeMembers(B, Load, Arg(0));
    return Load;
  }
  // (frag, src, ldm, col_major)
  if (Name == "__mstage_wmma_load_c") {
    Function *F = intrinsic(M,
                            Twine("llvm.nvvm.wmma.m16n16k16.load.c.") +
                                Layout(flag(CI, 3)) + ".stride.f32",
                            {Arg(1)->getType()});
    CallInst *Load = B.CreateCall(F, {Arg(1), Arg(2)});
    storeMembers(B, Load, Arg(0));
    return Load;
  }
  // (dst, frag, ldm, col_major)
  if (Name == "__mstage_wmma_store_d") {
    Function *F = intrinsic(M,
                            Twine("llvm.nvvm.wmma.m16n16k16.store.d.") +
                                Layout(flag(CI, 3)) + ".stride.f32",
                            {Arg(0)->getType()});
    SmallVector<Value *, 10> Ops = {Arg(0)};
    loadValues(B, Arg(1), B.getFloatTy(), 8, Ops);
    Ops.push_back(Arg(2));
    return B.CreateCall(F, Ops);
  }
  // (d, a, b, c, bf16, a_col_major, b_col_major): the inputs are read
  // before d is written, so d may be c.
  if (Name == "__mstage_wmma_mma") {
    bool Bf16 = flag(CI, 4);
    Function *F =
        intrinsic(M,
                  Twine("llvm.nvvm.wmma.m16n16k16.mma.") + Layout(flag(CI, 5)) +
                      "." + Layout(flag(CI, 6)) + (Bf16 ? ".bf16" : ".f32.f32"),
                  {});
    Type *In = Bf16 ? static_cast<Type *>(B.getInt32Ty())
                    : FixedVectorType::get(B.getHalfTy(), 2);
    unsigned N = Bf16 ? 4 : 8;
    SmallVector<Value *, 24> Ops;
    loadValues(B, Arg(1), In, N, Ops);
    loadValues(B, Arg(2), In, N, Ops);
    loadValues(B, Arg(3), B.getFloatTy(), 8, Ops);
    CallInst *Mma = B.CreateCall(F, Ops);
    storeMembers(B, Mma, Arg(0));
    return Mma;
  }
  return nullptr;
}

// Whether every object that P may point into is in shared memory.
static bool pointsIntoShared(Value *P) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(P, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return !Objects.empty() && all_of(Objects, [](const Value *O) {
    return O->getType()->getPointerAddressSpace() == 3;
  });
}

void useSharedWmmaAddresses(Module &M) {
  SmallVector<Function *, 8> Flat;
  for (Function &F : M)
    if (F.isIntrinsic() && F.getName().starts_with("llvm.nvvm.wmma.") &&
        (F.getName().contains(".load.") || F.getName().contains(".store.")) &&
        F.getFunctionType()->getParamType(0)->getPointerAddressSpace() == 0)
      Flat.push_back(&F);
  for (Function *F : Flat) {
    Function *Shared = nullptr;
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != F ||
          !pointsIntoShared(CI->getArgOperand(0)))
        continue;
      IRBuilder<> B(CI);
      if (!Shared)
        Shared = Intrinsic::getOrInsertDeclaration(&M, F->getIntrinsicID(),
                                                   {B.getPtrTy(3)});
      SmallVector<Value *, 10> Ops(CI->args());
      Ops[0] = B.CreateAddrSpaceCast(Ops[0], B.getPtrTy(3));
      CallInst *New = B.CreateCall(Shared, Ops);
      New->setDebugLoc(CI->getDebugLoc());
      CI->replaceAllUsesWith(New);
      CI->eraseFromParent();
      ++NumSharedWmma;
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
}

} // namespace mstage
