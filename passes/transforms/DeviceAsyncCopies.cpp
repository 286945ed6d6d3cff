//===- DeviceAsyncCopies.cpp - Asynchronous copies for the target ---------===//
#include "transforms/DeviceAsyncCopies.h"
#include "formats/AotImage.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-async-copies"

STATISTIC(NumAsyncCopies, "Copies to shared memory as cp.async (sm_80 on)");
STATISTIC(NumPlainCopies, "Copies to shared memory as a load and a store");

namespace mstage {

// The copy of Bytes bytes from global Src to shared Dst.
static void emitCopy(IRBuilder<> &B, unsigned Bytes, Value *Dst, Value *Src,
                     bool Async) {
  Value *Shared = B.CreateAddrSpaceCast(Dst, B.getPtrTy(3));
  Value *Global = B.CreateAddrSpaceCast(Src, B.getPtrTy(1));
  if (Async) {
    // .cg (L2 only) exists for 16 bytes: a tile read once need not fill L1.
    Intrinsic::ID ID =
        Bytes == 16  ? Intrinsic::nvvm_cp_async_cg_shared_global_16
        : Bytes == 8 ? Intrinsic::nvvm_cp_async_ca_shared_global_8
                     : Intrinsic::nvvm_cp_async_ca_shared_global_4;
    B.CreateIntrinsic(ID, {Shared, Global});
    ++NumAsyncCopies;
    return;
  }
  Type *Ty = Bytes == 16
                 ? static_cast<Type *>(FixedVectorType::get(B.getInt32Ty(), 4))
                 : B.getIntNTy(Bytes * 8);
  B.CreateAlignedStore(B.CreateAlignedLoad(Ty, Global, Align(Bytes)), Shared,
                       Align(Bytes));
  ++NumPlainCopies;
}

void lowerAsyncCopies(Module &M, const TargetMachine &TM) {
  const bool Async = archNumber(TM.getTargetCPU()) >= 80;
  static const char *const Names[] = {
      "__mstage_cp_async_4", "__mstage_cp_async_8", "__mstage_cp_async_16",
      "__mstage_cp_async_commit", "__mstage_cp_async_wait"};
  for (const char *Name : Names) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    StringRef N(Name);
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      IRBuilder<> B(CI);
      if (N == "__mstage_cp_async_commit") {
        if (Async)
          B.CreateIntrinsic(Intrinsic::nvvm_cp_async_commit_group, {});
      } else if (N == "__mstage_cp_async_wait") {
        // wait_group takes an immediate: a count that is not a constant
        // here waits for every batch, which is never too little.
        if (Async) {
          auto *Pending = dyn_cast<ConstantInt>(CI->getArgOperand(0));
          if (Pending)
            B.CreateIntrinsic(Intrinsic::nvvm_cp_async_wait_group, {},
                              {B.getInt32(Pending->getZExtValue())});
          else
            B.CreateIntrinsic(Intrinsic::nvvm_cp_async_wait_all, {});
        }
      } else {
        unsigned Bytes = 0;
        N.drop_front(strlen("__mstage_cp_async_")).getAsInteger(10, Bytes);
        assert((Bytes == 4 || Bytes == 8 || Bytes == 16) &&
               "the copies of builtins.h are of 4, 8 or 16 bytes");
        emitCopy(B, Bytes, CI->getArgOperand(0), CI->getArgOperand(1), Async);
      }
      CI->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << TM.getTargetCPU()
                    << (Async ? ": cp.async\n" : ": loads and stores\n"));
}

} // namespace mstage
