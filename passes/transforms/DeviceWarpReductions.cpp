//===- DeviceWarpReductions.cpp - Warp reductions for the target ----------===//
#include "transforms/DeviceWarpReductions.h"
#include "formats/AotImage.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-warp-reductions"

STATISTIC(NumRedux, "Warp reductions as redux.sync (sm_80 and later)");
STATISTIC(NumShuffled, "Warp reductions as shuffles (before sm_80)");

namespace mstage {

namespace {
struct Reduction {
  const char *Builtin;
  Intrinsic::ID Redux;
  Intrinsic::ID MinMax;      // the shuffles' combination, or not_intrinsic
  Instruction::BinaryOps Op; // when MinMax is not_intrinsic
  uint32_t Identity;
};
} // namespace

static const Reduction Reductions[] = {
    {"__mstage_redux_add", Intrinsic::nvvm_redux_sync_add,
     Intrinsic::not_intrinsic, Instruction::Add, 0},
    {"__mstage_redux_min", Intrinsic::nvvm_redux_sync_min, Intrinsic::smin,
     Instruction::BinaryOpsEnd, 0x7fffffff},
    {"__mstage_redux_max", Intrinsic::nvvm_redux_sync_max, Intrinsic::smax,
     Instruction::BinaryOpsEnd, 0x80000000},
    {"__mstage_redux_umin", Intrinsic::nvvm_redux_sync_umin, Intrinsic::umin,
     Instruction::BinaryOpsEnd, 0xffffffff},
    {"__mstage_redux_umax", Intrinsic::nvvm_redux_sync_umax, Intrinsic::umax,
     Instruction::BinaryOpsEnd, 0},
    {"__mstage_redux_and", Intrinsic::nvvm_redux_sync_and,
     Intrinsic::not_intrinsic, Instruction::And, 0xffffffff},
    {"__mstage_redux_or", Intrinsic::nvvm_redux_sync_or,
     Intrinsic::not_intrinsic, Instruction::Or, 0},
    {"__mstage_redux_xor", Intrinsic::nvvm_redux_sync_xor,
     Intrinsic::not_intrinsic, Instruction::Xor, 0},
};

// Before sm_80: every lane of the mask reads each lane's value with
// shfl.sync.idx (whose clamp 31 spans the warp) and combines those of the
// mask's lanes, so each gets the reduction; the lanes run the same shuffles,
// as shfl.sync requires.
static Value *shuffleReduction(IRBuilder<> &B, const Reduction &R, Value *Mask,
                               Value *V) {
  Value *Acc = B.getInt32(R.Identity);
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    Value *Other =
        B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_i32,
                          {Mask, V, B.getInt32(Lane), B.getInt32(0x1f)});
    Value *Combined = R.MinMax != Intrinsic::not_intrinsic
                          ? B.CreateBinaryIntrinsic(R.MinMax, Acc, Other)
                          : B.CreateBinOp(R.Op, Acc, Other);
    Value *InMask = B.CreateTrunc(B.CreateLShr(Mask, Lane), B.getInt1Ty());
    Acc = B.CreateSelect(InMask, Combined, Acc);
  }
  return Acc;
}

void lowerWarpReductions(Module &M, const TargetMachine &TM) {
  const bool HasRedux = archNumber(TM.getTargetCPU()) >= 80;
  for (const Reduction &R : Reductions) {
    Function *F = M.getFunction(R.Builtin);
    if (!F)
      continue;
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      IRBuilder<> B(CI);
      Value *Mask = CI->getArgOperand(0), *V = CI->getArgOperand(1);
      Value *Result = HasRedux ? B.CreateIntrinsic(R.Redux, {V, Mask})
                               : shuffleReduction(B, R, Mask, V);
      ++(HasRedux ? NumRedux : NumShuffled);
      CI->replaceAllUsesWith(Result);
      CI->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << TM.getTargetCPU()
                    << (HasRedux ? ": redux.sync\n" : ": shuffles\n"));
}

} // namespace mstage
