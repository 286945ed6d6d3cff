//===- DeviceWgmma.cpp - Warpgroup tensor-core builtins as inline PTX -----===//
//
// LLVM's NVVM has wgmma's fence, commit and wait intrinsics but not
// wgmma.mma_async, so all of them are inline PTX here: one asm each, whose
// accumulator operands are tied in and out, so that the optimizer keeps
// every read and write of the accumulator between the fence and the wait
// where the kernel put it.
//
//===----------------------------------------------------------------------===//
#include "transforms/DeviceWgmma.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-wgmma"

STATISTIC(NumWgmmaMma, "wgmma.mma_async instructions emitted");

namespace mstage {

static constexpr const char *Prefix = "__mstage_wgmma_";
// The arch-specific target wgmma needs, and the one it is a variant of.
static constexpr const char *WgmmaArch = "sm_90a", *BaseArch = "sm_90";

bool usesWgmma(const Module &M) {
  return any_of(M, [](const Function &F) {
    return F.isDeclaration() && !F.use_empty() &&
           F.getName().starts_with(Prefix);
  });
}

std::string targetArchFor(const Module &M, StringRef Arch) {
  return Arch == BaseArch && usesWgmma(M) ? WgmmaArch : Arch.str();
}

namespace {

// Operand I of CI as a constant; the header passes template arguments.
unsigned constantOperand(CallInst &CI, unsigned I) {
  auto *C = dyn_cast<ConstantInt>(CI.getArgOperand(I));
  assert(C && "the wgmma builtins' counts are constants");
  return C ? unsigned(C->getZExtValue()) : 0;
}

// The 64-bit shared-memory matrix descriptor of P (PTX ISA, "Matrix
// Descriptor Format"): the start address / 16 in bits 0-13; the leading
// byte offset / 16 in 16-29, unused by a swizzled K-major tile (1, as CUTLASS
// sets it); the stride byte offset / 16 in 32-45: 1024, from one group of 8
// rows to the next; the swizzle mode in 62-63: 1, 128 bytes.
Value *descriptor(IRBuilder<> &B, Value *P) {
  Value *Shared = B.CreateAddrSpaceCast(P, B.getPtrTy(3));
  Value *Address =
      B.CreateZExt(B.CreatePtrToInt(Shared, B.getInt32Ty()), B.getInt64Ty());
  uint64_t Fixed =
      (uint64_t(1) << 16) | (uint64_t(1024 / 16) << 32) | (uint64_t(1) << 62);
  return B.CreateOr(B.CreateLShr(B.CreateAnd(Address, 0x3ffff), 4), Fixed);
}

// "{$First, ..., $First+Count-1}"
std::string registerList(unsigned First, unsigned Count) {
  std::string S = "{";
  for (unsigned I = 0; I < Count; ++I)
    S += (I ? ", $" : "$") + std::to_string(First + I);
  return S + "}";
}

// Emits Text as an asm that reads and writes the Count floats at D (none
// when Count is 0) and takes Extra (with their constraints) after them.
// The floats are outputs 0 .. Count-1 and inputs tied to them; Extra's
// operands are numbered Count onwards.
void emitAsm(IRBuilder<> &B, StringRef Text, Value *D, unsigned Count,
             ArrayRef<Value *> Extra = {}, StringRef ExtraConstraints = "") {
  Type *F32 = B.getFloatTy();
  SmallVector<Type *, 128> OutTys(Count, F32);
  std::string Constraints;
  for (unsigned I = 0; I < Count; ++I)
    Constraints += "=f,";
  Constraints += ExtraConstraints;
  SmallVector<Value *, 136> Ins(Extra.begin(), Extra.end());
  SmallVector<Type *, 136> InTys;
  for (Value *V : Extra)
    InTys.push_back(V->getType());
  for (unsigned I = 0; I < Count; ++I) {
    Ins.push_back(
        B.CreateAlignedLoad(F32, B.CreateConstGEP1_32(F32, D, I), Align(4)));
    InTys.push_back(F32);
    Constraints += std::to_string(I) + ",";
  }
  Constraints += "~{memory}";
  Type *Ret =
      Count == 0 ? B.getVoidTy()
      : Count == 1
          ? F32
          : static_cast<Type *>(StructType::get(B.getContext(), OutTys));
  auto *Asm = InlineAsm::get(FunctionType::get(Ret, InTys, false), Text,
                             Constraints, /*hasSideEffects=*/true);
  assert(!errorToBool(InlineAsm::verify(Asm->getFunctionType(), Constraints)) &&
         "the wgmma asm's constraints match its operands");
  CallInst *Call = B.CreateCall(Asm, Ins);
  for (unsigned I = 0; I < Count; ++I)
    B.CreateAlignedStore(Count == 1 ? static_cast<Value *>(Call)
                                    : B.CreateExtractValue(Call, I),
                         B.CreateConstGEP1_32(F32, D, I), Align(4));
}

void emitCall(IRBuilder<> &B, StringRef Name, CallInst &CI) {
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  if (Name == "fence") // (d, count)
    return emitAsm(B, "wgmma.fence.sync.aligned;", Arg(0),
                   constantOperand(CI, 1));
  if (Name == "commit")
    return emitAsm(B, "wgmma.commit_group.sync.aligned;", nullptr, 0);
  if (Name == "proxy_fence")
    return emitAsm(B, "fence.proxy.async.shared::cta;", nullptr, 0);
  if (Name == "wait") // (pending, d, count)
    return emitAsm(B,
                   "wgmma.wait_group.sync.aligned " +
                       std::to_string(constantOperand(CI, 0)) + ";",
                   Arg(1), constantOperand(CI, 2));
  assert(Name == "mma_f16" && "builtins.h declares five wgmma builtins");
  // (d, a, b, n, accumulate): scale-d is a predicate, 0 to overwrite d.
  unsigned N = constantOperand(CI, 3), Count = N / 2;
  std::string Text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                     std::to_string(Count + 2) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(N) + "k16.f32.f16.f16 " +
                     registerList(0, Count) + ", $" + std::to_string(Count) +
                     ", $" + std::to_string(Count + 1) + ", p, 1, 1, 0, 0;\n}";
  Value *Accumulate = B.CreateZExt(
      B.CreateICmpNE(Arg(4), ConstantInt::get(Arg(4)->getType(), 0)),
      B.getInt32Ty());
  emitAsm(B, Text, Arg(0), Count,
          {descriptor(B, Arg(1)), descriptor(B, Arg(2)), Accumulate}, "l,l,r,");
  ++NumWgmmaMma;
}

} // namespace

Error lowerWgmma(Module &M, const TargetMachine &TM) {
  if (!usesWgmma(M))
    return Error::success();
  if (TM.getTargetCPU() != WgmmaArch)
    return createStringError(
        inconvertibleErrorCode(),
        "mstage::wgmma needs an sm_90 device (H100, H200), whose sm_90a "
        "code has wgmma; this compile is for " +
            TM.getTargetCPU().str());
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isDeclaration() || !F.getName().starts_with(Prefix))
      continue;
    StringRef Name = F.getName().drop_front(strlen(Prefix));
    for (User *U : make_early_inc_range(F.users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != &F)
        continue;
      IRBuilder<> B(CI);
      emitCall(B, Name, *CI);
      CI->eraseFromParent();
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Error::success();
}

} // namespace mstage
