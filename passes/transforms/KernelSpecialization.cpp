//===- KernelSpecialization.cpp - Fold staged values and launch config ----===//
#include "transforms/KernelSpecialization.h"
#include "transforms/StageSlicing.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-specialize"

STATISTIC(NumStagedValuesFolded, "Staged values folded into constants");
STATISTIC(NumExtentsFolded, "Reads of the launch's extents folded");
STATISTIC(NumIndexRanges, "Thread and block indices given a range");

namespace mstage {

Error foldStagedValues(Module &M, ArrayRef<StringRef> StagedValues) {
  for (size_t I = 0; I < StagedValues.size(); ++I) {
    GlobalVariable *GV =
        M.getNamedGlobal((StagePlaceholderPrefix + Twine(I)).str());
    if (!GV)
      continue; // the optimizer found the value unused
    auto *Ty = cast<ArrayType>(GV->getValueType());
    if (Ty->getNumElements() != StagedValues[I].size())
      return createStringError(
          inconvertibleErrorCode(),
          "stage site " + Twine(I) + " holds " + Twine(Ty->getNumElements()) +
              " bytes, the evaluator gave " + Twine(StagedValues[I].size()));
    GV->setInitializer(
        ConstantDataArray::getRaw(StagedValues[I], StagedValues[I].size(),
                                  Type::getInt8Ty(M.getContext())));
    GV->setLinkage(GlobalValue::InternalLinkage);
    GV->setConstant(true);
    ++NumStagedValuesFolded;
  }
  return Error::success();
}

void foldLaunchConfig(Module &M, StringRef KernelName, const LaunchConfig &C,
                      bool FoldSharedBytes) {
  LLVMContext &Ctx = M.getContext();
  MDBuilder MDB(Ctx);
  auto *I32 = Type::getInt32Ty(Ctx);
  for (Function &F : M) {
    if (!F.isIntrinsic())
      continue;
    if (F.getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size) {
      if (FoldSharedBytes)
        for (User *U : make_early_inc_range(F.users()))
          if (auto *CI = dyn_cast<CallInst>(U)) {
            CI->replaceAllUsesWith(ConstantInt::get(I32, C.sharedBytes()));
            CI->eraseFromParent();
            ++NumExtentsFolded;
          }
      continue;
    }
    int Axis = -1;
    enum { Size, GridSize, Index, BlockIndex } What;
    switch (F.getIntrinsicID()) {
#define AXES(NAME, KIND)                                                       \
  case Intrinsic::nvvm_read_ptx_sreg_##NAME##_x:                               \
    Axis = 0, What = KIND;                                                     \
    break;                                                                     \
  case Intrinsic::nvvm_read_ptx_sreg_##NAME##_y:                               \
    Axis = 1, What = KIND;                                                     \
    break;                                                                     \
  case Intrinsic::nvvm_read_ptx_sreg_##NAME##_z:                               \
    Axis = 2, What = KIND;                                                     \
    break;
      AXES(ntid, Size)
      AXES(nctaid, GridSize)
      AXES(tid, Index)
      AXES(ctaid, BlockIndex)
#undef AXES
    default:
      continue;
    }
    assert(Axis >= 0 && Axis < 3 && "each special register has its axis");
    for (User *U : make_early_inc_range(F.users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI)
        continue;
      uint32_t Block = C.blockDim(Axis), Grid = C.gridDim(Axis);
      switch (What) {
      case Size:
        CI->replaceAllUsesWith(ConstantInt::get(I32, Block));
        CI->eraseFromParent();
        ++NumExtentsFolded;
        break;
      case GridSize:
        CI->replaceAllUsesWith(ConstantInt::get(I32, Grid));
        CI->eraseFromParent();
        ++NumExtentsFolded;
        break;
      case Index:
        CI->setMetadata(LLVMContext::MD_range,
                        MDB.createRange(APInt(32, 0), APInt(32, Block)));
        ++NumIndexRanges;
        break;
      case BlockIndex:
        CI->setMetadata(LLVMContext::MD_range,
                        MDB.createRange(APInt(32, 0), APInt(32, Grid)));
        ++NumIndexRanges;
        break;
      }
    }
  }
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": launch configuration folded into "
                    << KernelName << "\n");
  if (Function *K = M.getFunction(KernelName))
    K->addFnAttr("nvvm.reqntid",
                 (Twine(C.blockDim(0)) + "," + Twine(C.blockDim(1)) + "," +
                  Twine(C.blockDim(2)))
                     .str());
}

} // namespace mstage
