//===- DeviceRetarget.cpp - Turn host IR into nvptx64 device IR -----------===//
#include "transforms/DeviceRetarget.h"
#include "transforms/DeviceDebugInfo.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-retarget"

STATISTIC(NumFunctionsRetargeted, "Functions retargeted to nvptx64");
STATISTIC(NumInvokesRemoved, "Invokes turned into calls");

namespace mstage {

static void stripHostAttributes(Function &F) {
  for (Attribute::AttrKind K :
       {Attribute::OptimizeNone, Attribute::NoInline, Attribute::UWTable,
        Attribute::StackProtect, Attribute::StackProtectStrong,
        Attribute::StackProtectReq})
    F.removeFnAttr(K);
  for (StringRef K :
       {"target-cpu", "target-features", "tune-cpu", "frame-pointer",
        "stack-protector-buffer-size", "min-legal-vector-width", "probe-stack"})
    F.removeFnAttr(K);
}

// Kernels cannot throw (the front end rejects throw and try), so every call
// is known not to unwind and exception-handling edges are dead.
static void removeExceptionHandling(Function &F) {
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  NumInvokesRemoved += Invokes.size();
  if (!Invokes.empty())
    removeUnreachableBlocks(F);
  if (F.hasPersonalityFn())
    F.setPersonalityFn(nullptr);
}

void retargetToNVPTX(Module &M) {
  M.setTargetTriple(Triple(NVPTXTriple));
  M.setDataLayout(NVPTXDataLayout);
  // Host code compiled at -O0 is optnone: the user debugs.
  bool AtO0 = any_of(M, [](const Function &F) {
    return !F.isDeclaration() && F.hasFnAttribute(Attribute::OptimizeNone);
  });
  prepareDeviceDebugInfo(M, /*FullDebugAtO0=*/AtO0);

  for (Function &F : M) {
    F.setComdat(nullptr);
    stripHostAttributes(F);
    ++NumFunctionsRetargeted;
    if (!F.isDeclaration())
      removeExceptionHandling(F);
  }
  for (GlobalVariable &GV : M.globals())
    GV.setComdat(nullptr);
  M.getComdatSymbolTable().clear();
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << M.getModuleIdentifier()
                    << " retargeted to " << NVPTXTriple << "\n");

  // Host module flags (PIC level, uwtable, frame-pointer, ...) mean nothing
  // on the device; wchar_size keeps the IR linkable with libdevice, and
  // without the debug info version the bitcode reader drops the lines (the
  // DWARF version is NVPTX's own).
  if (NamedMDNode *Flags = M.getModuleFlagsMetadata()) {
    SmallVector<std::pair<StringRef, uint64_t>, 2> Kept;
    for (StringRef Name : {"wchar_size", "Debug Info Version"})
      if (auto *C =
              mdconst::dyn_extract_or_null<ConstantInt>(M.getModuleFlag(Name)))
        Kept.push_back({Name, C->getZExtValue()});
    M.eraseNamedMetadata(Flags);
    for (auto [Name, Value] : Kept)
      M.addModuleFlag(Name == "wchar_size" ? Module::Error : Module::Warning,
                      Name, Value);
  }
  for (StringRef Name : {"llvm.ident", "llvm.linker.options"})
    if (NamedMDNode *N = M.getNamedMetadata(Name))
      M.eraseNamedMetadata(N);
}

std::unique_ptr<Module> cloneReached(const Module &M,
                                     const SetVector<GlobalValue *> &Reached,
                                     ValueToValueMapTy &VMap) {
  std::unique_ptr<Module> Dev =
      CloneModule(M, VMap, [&](const GlobalValue *GV) {
        return Reached.count(const_cast<GlobalValue *>(GV)) != 0;
      });
  assert(
      all_of(Reached, [&](GlobalValue *GV) { return VMap.count(GV) != 0; }) &&
      "every reached value has its clone");
  for (StringRef Name :
       {"llvm.global.annotations", "llvm.used", "llvm.compiler.used",
        "llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *GV = Dev->getNamedGlobal(Name))
      GV->eraseFromParent();
  return Dev;
}

} // namespace mstage
