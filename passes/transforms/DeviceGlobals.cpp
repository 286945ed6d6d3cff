//===- DeviceGlobals.cpp - device_global variables as module variables ----===//
#include "transforms/DeviceGlobals.h"
#include "formats/KernelTags.h"
#include "transforms/Diagnostics.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-globals"

STATISTIC(NumDeviceGlobals, "device_global variables lowered in device code");

namespace mstage {
namespace {

// On a marked host variable (kept by its clones): !{name, constant}.
constexpr const char *HostMarker = "mstage.device_global";
// On the module variable made of it.
constexpr const char *DeviceMarker = "mstage.device_global.var";

// Address spaces of NVPTX: global and constant memory.
constexpr unsigned GlobalSpace = 1, ConstantSpace = 4;

// The module variable's name: the host variable's, prefixed so that it
// cannot meet another symbol of the module; a variable of internal linkage
// also gets its file's hash, as other files may have one of that name.
std::string deviceName(const Module &M, const GlobalVariable &GV) {
  std::string Name = ("__mstage_global_" + GV.getName()).str();
  if (GV.hasLocalLinkage())
    Name += "_" + utohexstr(xxh3_64bits(M.getSourceFileName()));
  return Name;
}

// Where an instruction that uses V can load it: before the instruction, or
// at the end of the incoming block for a phi.
Instruction *insertionPointFor(Instruction *User, Value *V) {
  auto *Phi = dyn_cast<PHINode>(User);
  if (!Phi)
    return User;
  for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
    if (Phi->getIncomingValue(I) == V)
      return Phi->getIncomingBlock(I)->getTerminator();
  llvm_unreachable("the phi uses the value");
}

// Erases the globals Gone, which only llvm.used and the annotations name.
void eraseAnnotatedGlobals(Module &M,
                           const SmallPtrSetImpl<GlobalValue *> &Gone) {
  if (Gone.empty())
    return;
  removeFromUsedLists(M, [&](Constant *C) {
    return Gone.contains(dyn_cast<GlobalValue>(C->stripPointerCasts()));
  });
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  auto *Arr = cast<ConstantArray>(GA->getInitializer());
  SmallVector<Constant *, 8> Kept;
  for (Value *Op : Arr->operands())
    if (!Gone.contains(dyn_cast<GlobalValue>(
            cast<Constant>(Op)->getOperand(0)->stripPointerCasts())))
      Kept.push_back(cast<Constant>(Op));
  auto *Ty = ArrayType::get(Arr->getType()->getElementType(), Kept.size());
  auto *Annotations = new GlobalVariable(
      M, Ty, GA->isConstant(), GA->getLinkage(), ConstantArray::get(Ty, Kept),
      "", GA, GA->getThreadLocalMode());
  Annotations->setSection(GA->getSection());
  Annotations->takeName(GA);
  GA->eraseFromParent();
  for (GlobalValue *GV : Gone) {
    GV->removeDeadConstantUsers();
    assert(GV->use_empty() && "only the lists name a marker");
    GV->eraseFromParent();
  }
}

} // namespace

SmallVector<DeviceGlobalInfo, 4> markDeviceGlobals(Module &M) {
  SmallVector<DeviceGlobalInfo, 4> Found;
  SmallPtrSet<GlobalValue *, 4> Markers;
  LLVMContext &Ctx = M.getContext();
  for (auto &[GV, Strings] : readGlobalAnnotations(M)) {
    auto *Var = dyn_cast<GlobalVariable>(GV);
    if (!Var)
      continue;
    bool IsExtern = is_contained(Strings, ExternDeviceGlobalAnnotation);
    bool IsConstant = is_contained(Strings, ExternDeviceConstantAnnotation);
    if (IsExtern || IsConstant) {
      // The plugin's marker: its initializer names the declaration.
      Markers.insert(Var);
      assert(Var->hasInitializer() && "the marker is a constant address");
      Var = dyn_cast<GlobalVariable>(
          Var->getInitializer()->stripPointerCastsAndAliases());
      assert(Var && Var->isDeclaration() &&
             "the plugin marks declarations the unit does not define");
      if (!Var || Var->getMetadata(HostMarker))
        continue;
    } else {
      IsConstant = is_contained(Strings, DeviceConstantAnnotation);
      if (!IsConstant && !is_contained(Strings, DeviceGlobalAnnotation))
        continue;
    }
    std::string Name = deviceName(M, *Var);
    Var->setMetadata(
        HostMarker, MDNode::get(Ctx, {MDString::get(Ctx, Name),
                                      ConstantAsMetadata::get(ConstantInt::get(
                                          Type::getInt1Ty(Ctx), IsConstant))}));
    Found.push_back({Var, Name, IsConstant,
                     M.getDataLayout().getTypeAllocSize(Var->getValueType())});
  }
  eraseAnnotatedGlobals(M, Markers);
  return Found;
}

bool isDeviceGlobal(const GlobalValue &GV) {
  auto *Var = dyn_cast<GlobalVariable>(&GV);
  return Var &&
         (Var->getMetadata(HostMarker) || Var->getMetadata(DeviceMarker));
}

void lowerDeviceGlobals(Module &Dev) {
  LLVMContext &Ctx = Dev.getContext();
  SmallVector<GlobalVariable *, 4> Clones;
  for (GlobalVariable &GV : Dev.globals())
    if (GV.getMetadata(HostMarker))
      Clones.push_back(&GV);
  for (GlobalVariable *GV : Clones) {
    MDNode *MD = GV->getMetadata(HostMarker);
    std::string Name = cast<MDString>(MD->getOperand(0))->getString().str();
    bool IsConstant =
        !mdconst::extract<ConstantInt>(MD->getOperand(1))->isZero();
    Type *Ty = GV->getValueType();
    GlobalVariable *Var;
    if (IsConstant) {
      // The initializer is what the module starts from; the runtime writes
      // the device's value at load. One that names host objects is not
      // device code: zeros instead.
      Constant *Init =
          GV->hasInitializer() && !GV->getInitializer()->needsRelocation()
              ? GV->getInitializer()
              : Constant::getNullValue(Ty);
      Var = new GlobalVariable(Dev, Ty, /*isConstant=*/false,
                               GlobalValue::WeakODRLinkage, Init, Name, nullptr,
                               GlobalValue::NotThreadLocal, ConstantSpace);
      Var->setAlignment(GV->getAlign());
      GV->replaceAllUsesWith(
          ConstantExpr::getAddrSpaceCast(Var, GV->getType()));
    } else {
      // The pointer to global memory, which the accesses through it say.
      auto *PtrTy = PointerType::get(Ctx, 0);
      auto *GlobalPtrTy = PointerType::get(Ctx, GlobalSpace);
      Var = new GlobalVariable(
          Dev, GlobalPtrTy, /*isConstant=*/false, GlobalValue::WeakODRLinkage,
          ConstantPointerNull::get(GlobalPtrTy), Name, nullptr,
          GlobalValue::NotThreadLocal, GlobalSpace);
      Var->setAlignment(Align(8));
      // Every use loads the pointer, which the runtime sets before any
      // launch and never changes: invariant, so the loads merge and hoist.
      convertUsersOfConstantsToInstructions(ArrayRef<Constant *>(GV));
      for (Use &U : make_early_inc_range(GV->uses())) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        if (!I) {
          // Another variable's initializer holds its address: a host
          // address, which device code cannot use.
          reportError(Dev, "the address of device_global '" + Name +
                               "' in a variable's initializer; take it in "
                               "kernel code instead");
          U.set(PoisonValue::get(GV->getType()));
          continue;
        }
        IRBuilder<> B(insertionPointFor(I, GV));
        LoadInst *Ptr = B.CreateLoad(GlobalPtrTy, Var, Name + ".ptr");
        Ptr->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
        U.set(B.CreateAddrSpaceCast(Ptr, PtrTy));
      }
    }
    Var->setMetadata(DeviceMarker, MDNode::get(Ctx, {}));
    assert(GV->use_empty() && "every use reaches the module variable");
    GV->eraseFromParent();
    assert(Var->getName() == Name && "the clone gave up its name");
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Name
                      << (IsConstant ? " (.const)" : " (.global pointer)")
                      << "\n");
    ++NumDeviceGlobals;
  }
}

} // namespace mstage
