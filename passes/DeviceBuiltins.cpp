//===- DeviceBuiltins.cpp - Map mstage builtins onto NVVM intrinsics ------===//
#include "DeviceBuiltins.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

// The warp primitives of include/mstage/builtins.h; null for other names.
static Value *emitWarpBuiltin(IRBuilder<> &B, StringRef Name, CallInst &CI) {
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  if (Name == "__mstage_lane_id")
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  if (Name == "__mstage_activemask")
    return B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
  if (Name == "__mstage_syncwarp")
    return B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {Arg(0)});
  auto Pred = [&] { return B.CreateICmpNE(Arg(1), B.getInt32(0)); };
  if (Name == "__mstage_ballot")
    return B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync,
                             {Arg(0), Pred()});
  if (Name == "__mstage_any")
    return B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {Arg(0), Pred()}),
        B.getInt32Ty());
  if (Name == "__mstage_all")
    return B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_vote_all_sync, {Arg(0), Pred()}),
        B.getInt32Ty());
  // The shuffles' last operand packs the segment mask, 32 - width, in bits
  // 8-12 and the clamp lane in bits 0-4: 31, which the segment mask narrows
  // to the segment's last lane, or 0 (its first) for shfl.up. This is how
  // CUDA encodes width.
  static const struct {
    const char *Name;
    Intrinsic::ID ID;
    int Clamp;
  } Shuffles[] = {
      {"__mstage_shfl_i32", Intrinsic::nvvm_shfl_sync_idx_i32, 0x1f},
      {"__mstage_shfl_up_i32", Intrinsic::nvvm_shfl_sync_up_i32, 0},
      {"__mstage_shfl_down_i32", Intrinsic::nvvm_shfl_sync_down_i32, 0x1f},
      {"__mstage_shfl_xor_i32", Intrinsic::nvvm_shfl_sync_bfly_i32, 0x1f}};
  for (const auto &S : Shuffles)
    if (Name == S.Name) {
      Value *SegMask = B.CreateShl(B.CreateSub(B.getInt32(32), Arg(3)), 8);
      return B.CreateIntrinsic(
          S.ID,
          {Arg(0), Arg(1), Arg(2), B.CreateOr(SegMask, B.getInt32(S.Clamp))});
    }
  return nullptr;
}

static Value *emitBuiltin(IRBuilder<> &B, Module &M, StringRef Name,
                          CallInst &CI) {
  if (Value *V = emitWarpBuiltin(B, Name, CI))
    return V;
  static const std::pair<const char *, Intrinsic::ID> SRegs[] = {
      {"__mstage_tid_x", Intrinsic::nvvm_read_ptx_sreg_tid_x},
      {"__mstage_tid_y", Intrinsic::nvvm_read_ptx_sreg_tid_y},
      {"__mstage_tid_z", Intrinsic::nvvm_read_ptx_sreg_tid_z},
      {"__mstage_ntid_x", Intrinsic::nvvm_read_ptx_sreg_ntid_x},
      {"__mstage_ntid_y", Intrinsic::nvvm_read_ptx_sreg_ntid_y},
      {"__mstage_ntid_z", Intrinsic::nvvm_read_ptx_sreg_ntid_z},
      {"__mstage_ctaid_x", Intrinsic::nvvm_read_ptx_sreg_ctaid_x},
      {"__mstage_ctaid_y", Intrinsic::nvvm_read_ptx_sreg_ctaid_y},
      {"__mstage_ctaid_z", Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {"__mstage_nctaid_x", Intrinsic::nvvm_read_ptx_sreg_nctaid_x},
      {"__mstage_nctaid_y", Intrinsic::nvvm_read_ptx_sreg_nctaid_y},
      {"__mstage_nctaid_z", Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
  };
  for (auto &[SRegName, ID] : SRegs)
    if (Name == SRegName)
      return B.CreateIntrinsic(ID, {});

  if (Name == "__mstage_barrier")
    return B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                             {B.getInt32(0)});

  if (Name == "__mstage_shared_base") {
    auto *Arr = ArrayType::get(B.getInt8Ty(), 0);
    auto *GV = M.getNamedGlobal(DynamicSharedName);
    if (!GV) {
      GV = new GlobalVariable(M, Arr, false, GlobalValue::ExternalLinkage,
                              nullptr, DynamicSharedName, nullptr,
                              GlobalValue::NotThreadLocal, 3);
      GV->setAlignment(Align(16));
    }
    return B.CreateAddrSpaceCast(GV, B.getPtrTy());
  }
  return nullptr;
}

void lowerDeviceBuiltins(Module &M) {
  SmallVector<Function *, 16> Builtins;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__mstage_"))
      Builtins.push_back(&F);

  for (Function *F : Builtins) {
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      IRBuilder<> B(CI);
      Value *V = emitBuiltin(B, M, F->getName(), *CI);
      if (!V)
        continue; // unknown: left for the unresolved-symbol check
      if (!CI->getType()->isVoidTy())
        CI->replaceAllUsesWith(V);
      CI->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
}

} // namespace mstage
