//===- DeviceBuiltins.cpp - Map mstage builtins onto NVVM intrinsics ------===//
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceComplex.h"
#include "transforms/DeviceSharedArrays.h"
#include "transforms/DeviceStreamLoads.h"
#include "transforms/DeviceWmma.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-lower-builtins"

STATISTIC(NumBuiltinCalls, "Calls to mstage builtins lowered");
STATISTIC(NumUnknownBuiltins, "Calls to unknown mstage builtins left alone");

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
  // match.any.sync returns the lanes; match.all.sync also its predicate,
  // which CUDA's __match_all_sync stores through its last operand.
  if (Name == "__mstage_match_any_i32" || Name == "__mstage_match_any_i64")
    return B.CreateIntrinsic(Name.ends_with("i32")
                                 ? Intrinsic::nvvm_match_any_sync_i32
                                 : Intrinsic::nvvm_match_any_sync_i64,
                             {Arg(0), Arg(1)});
  if (Name == "__mstage_match_all_i32" || Name == "__mstage_match_all_i64") {
    Value *Pair = B.CreateIntrinsic(Name.ends_with("i32")
                                        ? Intrinsic::nvvm_match_all_sync_i32p
                                        : Intrinsic::nvvm_match_all_sync_i64p,
                                    {Arg(0), Arg(1)});
    B.CreateStore(B.CreateZExt(B.CreateExtractValue(Pair, 1), B.getInt32Ty()),
                  Arg(2));
    return B.CreateExtractValue(Pair, 0);
  }
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

namespace {
// The failure blocks of the checks, one per function and message: every
// check of a kernel with the same message branches to one block, whose PHIs
// carry the values to print to one out-of-line report per message, so that
// a kernel with many accesses has one call, and no printf buffer of its own.
class CheckFailures {
public:
  explicit CheckFailures(Module &M) : M(M) {}

  // Makes CI's block branch to the failure of (Format, Expression) when
  // Fails is true, printing Message (file, line, function, then the
  // Format's other values). Returns the branch.
  Value *branch(CallInst &CI, Value *Fails, const char *Format,
                StringRef Expression, ArrayRef<Value *> Message) {
    BasicBlock *Head = CI.getParent();
    BasicBlock *Fail =
        failureBlock(*Head->getParent(), Format, Expression, Message);
    BasicBlock *Rest = SplitBlock(Head, &CI);
    Head->getTerminator()->eraseFromParent();
    auto *Br = BranchInst::Create(Fail, Rest, Fails, Head);
    Br->setMetadata(LLVMContext::MD_prof,
                    MDBuilder(M.getContext()).createUnlikelyBranchWeights());
    assert(size_t(std::distance(Fail->phis().begin(), Fail->phis().end())) ==
               Message.size() &&
           "a check's message has the values of its failure block's PHIs");
    auto Phi = Fail->phis().begin();
    for (Value *V : Message)
      (Phi++)->addIncoming(V, Head);
    return Br;
  }

private:
  BasicBlock *failureBlock(Function &F, const char *Format,
                           StringRef Expression, ArrayRef<Value *> Message) {
    BasicBlock *&BB = Blocks[{&F, Format}];
    if (BB)
      return BB;
    LLVMContext &Ctx = M.getContext();
    BB = BasicBlock::Create(Ctx, "mstage.check.fail", &F);
    IRBuilder<> B(BB);
    SmallVector<Value *, 8> Args;
    for (Value *V : Message)
      Args.push_back(B.CreatePHI(V->getType(), 4));
    B.CreateCall(reportFunction(Format, Expression, Message), Args);
    B.CreateUnreachable();
    return BB;
  }

  // The report of (Format, Expression), out of line: a cold, noinline
  // function that prints Message and asserts. In the kernel a failure is a
  // call with the values as parameters, so the printf buffer (local memory)
  // and the strings' addresses are the report's, not the kernel's: a checked
  // kernel keeps close to the registers and stack of an unchecked one.
  Function *reportFunction(const char *Format, StringRef Expression,
                           ArrayRef<Value *> Message) {
    Function *&Report = Reports[Format];
    if (Report)
      return Report;
    LLVMContext &Ctx = M.getContext();
    auto *Ptr = PointerType::getUnqual(Ctx);
    auto *I32 = Type::getInt32Ty(Ctx);
    SmallVector<Type *, 8> Types;
    for (Value *V : Message)
      Types.push_back(V->getType());
    Report = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), Types, false),
        GlobalValue::InternalLinkage, "mstage.check.report", M);
    Report->addFnAttr(Attribute::NoInline);
    Report->addFnAttr(Attribute::Cold);
    Report->addFnAttr(Attribute::NoReturn);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", Report));
    SmallVector<Value *, 8> Args = {
        B.CreateGlobalString(Format, "mstage.check.format")};
    for (Argument &A : Report->args())
      Args.push_back(&A);
    FunctionCallee Printf =
        M.getOrInsertFunction("printf", FunctionType::get(I32, {Ptr}, true));
    B.CreateCall(Printf, Args);
    // lowerAssert makes this CUDA's __assertfail and a trap: the launch
    // stops with CUDA_ERROR_ASSERT, and the driver adds block and thread.
    FunctionCallee AssertFail = M.getOrInsertFunction(
        "__assert_fail",
        FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I32, Ptr}, false));
    B.CreateCall(AssertFail,
                 {B.CreateGlobalString(Expression, "mstage.check.expression"),
                  Args[1], Args[2], Args[3]});
    B.CreateUnreachable();
    return Report;
  }

  Module &M;
  DenseMap<std::pair<Function *, const char *>, BasicBlock *> Blocks;
  DenseMap<const char *, Function *> Reports;
};
} // namespace

// The checks of include/mstage/bounds_check.hpp; null for other names.
static Value *emitCheckBuiltin(IRBuilder<> &B, CheckFailures &Failures,
                               StringRef Name, CallInst &CI) {
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  // (index, size, what, file, line, function): the index is compared
  // unsigned, so a negative one fails too.
  if (Name == "__mstage_check_bounds")
    return Failures.branch(CI, B.CreateICmpUGE(Arg(0), Arg(1)),
                           BoundsCheckFormat, "index < size",
                           {Arg(3), Arg(4), Arg(5), Arg(0), Arg(2), Arg(1)});
  // (needed, available, file, line, function)
  if (Name == "__mstage_check_shared")
    return Failures.branch(CI, B.CreateICmpUGT(Arg(0), Arg(1)),
                           SharedCheckFormat, "needed <= shared_bytes",
                           {Arg(2), Arg(3), Arg(4), Arg(0), Arg(1)});
  // (file, line, function): the barrier counts the threads that arrive.
  if (Name == "__mstage_check_barrier") {
    Value *Arrived =
        B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_red_popc_aligned_all, {},
                          {B.getInt32(0), B.getTrue()});
    Value *Threads = B.CreateMul(
        B.CreateMul(
            B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}),
            B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_y, {})),
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_z, {}));
    return Failures.branch(CI, B.CreateICmpNE(Arrived, Threads),
                           BarrierCheckFormat,
                           "every thread reaches the barrier",
                           {Arg(0), Arg(1), Arg(2), Arrived, Threads});
  }
  return nullptr;
}

static Value *emitBuiltin(IRBuilder<> &B, Module &M, CheckFailures &Failures,
                          StringRef Name, CallInst &CI) {
  if (Value *V = emitWarpBuiltin(B, Name, CI))
    return V;
  // mstage::on_device(): device code is device code. device_arch() waits for
  // the JIT, which knows the architecture (foldDeviceArch).
  if (Name == "__mstage_on_device")
    return B.getInt32(1);
  if (Value *V = emitCheckBuiltin(B, Failures, Name, CI))
    return V;
  if (Value *V = emitWmmaBuiltin(B, Name, CI))
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
      // The launch's shared_bytes; the JIT folds it when it knows the launch.
      {"__mstage_dynamic_shared_size",
       Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size},
  };
  for (auto &[SRegName, ID] : SRegs)
    if (Name == SRegName)
      return B.CreateIntrinsic(ID, {});

  // mstage::ldg's chunks (include/mstage/ldg.hpp): a global load marked
  // invariant, which NVPTX emits as ld.global.nc, as wide as the result. The
  // streaming chunk waits for the architecture (lowerStreamLoads).
  if (Name.starts_with("__mstage_ldg_") && Name != StreamLoadName) {
    Type *Ty = CI.getType();
    LoadInst *L = B.CreateAlignedLoad(
        Ty, B.CreateAddrSpaceCast(CI.getArgOperand(0), B.getPtrTy(1)),
        Align(M.getDataLayout().getTypeStoreSize(Ty).getFixedValue()));
    L->setMetadata(LLVMContext::MD_invariant_load,
                   MDNode::get(M.getContext(), {}));
    return L;
  }

  // atomicInc and atomicDec; scopeDeviceAtomics gives them device scope.
  if (Name == "__mstage_atomic_inc_u32" || Name == "__mstage_atomic_dec_u32")
    return B.CreateAtomicRMW(Name == "__mstage_atomic_inc_u32"
                                 ? AtomicRMWInst::UIncWrap
                                 : AtomicRMWInst::UDecWrap,
                             CI.getArgOperand(0), CI.getArgOperand(1),
                             Align(4), AtomicOrdering::Monotonic);

  if (Name == "__mstage_barrier")
    return B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                             {B.getInt32(0)});
  // nanosleep.u32 (sm_70 and later).
  if (Name == "__mstage_nanosleep")
    return B.CreateIntrinsic(Intrinsic::nvvm_nanosleep, {CI.getArgOperand(0)});

  // One zeroed word per module: the grid barrier of cooperative_groups.hpp
  // adds up to 2^31 per barrier, so it needs no reset between launches.
  if (Name == "__mstage_grid_barrier") {
    auto *GV = M.getNamedGlobal(GridBarrierName);
    if (!GV) {
      GV = new GlobalVariable(
          M, B.getInt32Ty(), false, GlobalValue::InternalLinkage, B.getInt32(0),
          GridBarrierName, nullptr, GlobalValue::NotThreadLocal, 1);
      GV->setAlignment(Align(4));
    }
    return B.CreateAddrSpaceCast(GV, B.getPtrTy());
  }
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
  lowerSharedArrays(M);
  defineComplexHelpers(M);
  SmallVector<Function *, 16> Builtins;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__mstage_"))
      Builtins.push_back(&F);

  CheckFailures Failures(M);
  for (Function *F : Builtins) {
    for (User *U : make_early_inc_range(F->users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != F)
        continue;
      IRBuilder<> B(CI);
      Value *V = emitBuiltin(B, M, Failures, F->getName(), *CI);
      if (!V) { // unknown: left for the unresolved-symbol check
        LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": unknown builtin " << F->getName()
                          << "\n");
        ++NumUnknownBuiltins;
        continue;
      }
      ++NumBuiltinCalls;
      if (!CI->getType()->isVoidTy())
        CI->replaceAllUsesWith(V);
      CI->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
}

} // namespace mstage
