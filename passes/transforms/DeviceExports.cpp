//===- DeviceExports.cpp - Device code shared between translation units ---===//
#include "transforms/DeviceExports.h"
#include "DeviceLibraryFunctions.h"
#include "formats/KernelTags.h"
#include "transforms/DeviceAtomics.h"
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceGlobals.h"
#include "transforms/DeviceHeap.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/DevicePrintf.h"
#include "transforms/DeviceRetarget.h"
#include "transforms/DeviceThrows.h"
#include "transforms/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-exports"

STATISTIC(NumExports, "Device functions exported to other units");
STATISTIC(NumHostExports, "Tagged exports left out as host code");
STATISTIC(NumImports, "Calls left for other units' exports");

namespace mstage {
namespace {

// Declarations that the target, the device runtime, libdevice or mstage's
// own lowering provide.
bool isProvided(const Function &F) {
  StringRef Name = F.getName();
  // puts and putchar: printf that the host compiler simplified, lowered
  // back to vprintf (DevicePrintf.cpp).
  return F.isIntrinsic() || Name == "vprintf" || Name == "puts" ||
         Name == "putchar" || Name == "malloc" || Name == "free" ||
         Name == "__assertfail" || Name == "__nvvm_reflect" ||
         Name.starts_with("__nv_") || Name.starts_with("__mstage_") ||
         isDeviceLibraryFunction(Name);
}

std::string typeText(const Function &F) {
  std::string S;
  raw_string_ostream OS(S);
  F.getFunctionType()->print(OS);
  return S;
}

// A host variable, a function that throws, or inline assembly: what the
// kernel checks reject, as it shows in the IR. (Invokes are no sign: any
// call past a destructor is one, and the device lowering makes it a call.)
bool isHostCode(GlobalValue *GV) {
  if (auto *Var = dyn_cast<GlobalVariable>(GV))
    return (!Var->isConstant() || Var->isThreadLocal()) &&
           !isDeviceGlobal(*Var);
  auto *F = dyn_cast<Function>(GV);
  if (!F)
    return false;
  StringRef Name = F->getName();
  if (Name.starts_with("__cxa_") ||
      (Name.starts_with("_ZSt") && Name.contains("__throw_")))
    return true;
  for (Instruction &I : instructions(*F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm())
      return true;
  return false;
}

// The hash of an export: its device code and that of the functions of the
// unit it reaches, so that a change in any of them is seen.
uint64_t hashExport(Function &F) {
  std::string Text;
  raw_string_ostream OS(Text);
  for (GlobalValue *GV : collectReachable(F, StageFunctions()))
    if (!GV->isDeclaration())
      GV->print(OS);
    else
      OS << GV->getName() << "\n";
  return xxh3_64bits(Text);
}

} // namespace

SetVector<GlobalValue *> collectReachable(Function &Entry,
                                          const StageFunctions &StageFns) {
  SetVector<GlobalValue *> Reached;
  SmallVector<GlobalValue *, 32> Work{&Entry};
  SmallPtrSet<const Constant *, 32> SeenConstants;
  auto Visit = [&](auto &Self, Value *V) -> void {
    if (auto *GV = dyn_cast<GlobalValue>(V)) {
      if (Reached.insert(GV))
        Work.push_back(GV);
      return;
    }
    auto *C = dyn_cast<Constant>(V);
    if (!C || isa<ConstantData>(C) || !SeenConstants.insert(C).second)
      return;
    for (Value *Op : C->operands())
      Self(Self, Op);
  };
  Reached.insert(&Entry);
  while (!Work.empty()) {
    GlobalValue *GV = Work.pop_back_val();
    if (auto *F = dyn_cast<Function>(GV)) {
      // stage() functions run on the host; the device gets their results.
      if (StageFns.count(F))
        continue;
      for (Instruction &I : instructions(*F))
        for (Value *Op : I.operands())
          Visit(Visit, Op);
    } else if (auto *Var = dyn_cast<GlobalVariable>(GV)) {
      if (Var->hasInitializer())
        Visit(Visit, Var->getInitializer());
    } else if (auto *GA = dyn_cast<GlobalAlias>(GV)) {
      Visit(Visit, GA->getAliasee());
    }
  }
  return Reached;
}

Error lowerForDevice(Module &Dev) {
  lowerDeviceGlobals(Dev);
  retargetToNVPTX(Dev);
  lowerDeviceBuiltins(Dev);
  lowerDeviceHeap(Dev);
  lowerThrows(Dev);
  lowerAssert(Dev);
  scopeDeviceAtomics(Dev);
  fenceAtomicReadModifyWrites(Dev);
  return lowerPrintf(Dev);
}

StringMap<std::string> callLocations(Module &M) {
  StringMap<std::string> Locations;
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic())
      continue;
    for (const User *U : F.users())
      if (const auto *CB = dyn_cast<CallBase>(U))
        if (const DILocation *DL = CB->getDebugLoc().get()) {
          Locations[F.getName()] =
              (DL->getFilename() + ":" + Twine(DL->getLine()) + ":" +
               Twine(DL->getColumn()))
                  .str();
          break;
        }
  }
  return Locations;
}

std::vector<DeviceImport> findImports(ArrayRef<GlobalValue *> Reached,
                                      StringRef Requester, bool FromExport,
                                      const StringMap<std::string> &Locations) {
  std::vector<DeviceImport> Imports;
  for (GlobalValue *GV : Reached) {
    auto *F = dyn_cast<Function>(GV);
    if (!F || !F->isDeclaration() || F->use_empty() || isProvided(*F))
      continue;
    Imports.push_back({Requester.str(), FromExport, F->getName().str(),
                       typeText(*F), Locations.lookup(F->getName())});
    ++NumImports;
  }
  return Imports;
}

void buildDeviceExports(Module &M, const StageFunctions &StageFns,
                        TargetMachine *TM, DeviceLinkBlob &Link,
                        std::string &Bitcode) {
  SetVector<GlobalValue *> Reached;
  SmallVector<Function *, 8> Roots;
  for (auto &[F, Strings] : readAnnotations(M)) {
    if (!is_contained(Strings, DeviceExportAnnotation) || F->isDeclaration() ||
        !(F->hasExternalLinkage() || F->hasWeakODRLinkage()))
      continue;
    SetVector<GlobalValue *> R = collectReachable(*F, StageFns);
    // The plugin checked the source, but not the functions defined after
    // the export nor the templates instantiated later: host code found in
    // them here leaves the export out.
    if (any_of(R, isHostCode)) {
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << F->getName()
                        << " reaches host code, not exported\n");
      ++NumHostExports;
      continue;
    }
    Roots.push_back(F);
    Reached.insert(R.begin(), R.end());
  }
  if (Roots.empty())
    return;

  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Dev = cloneReached(M, Reached, VMap);
  SmallPtrSet<GlobalValue *, 8> DevRoots;
  for (Function *F : Roots)
    DevRoots.insert(cast<Function>(VMap[F]));
  for (GlobalValue &GV : Dev->global_values()) {
    if (GV.isDeclaration())
      continue;
    GV.setVisibility(GlobalValue::DefaultVisibility);
    GV.setDLLStorageClass(GlobalValue::DefaultStorageClass);
    GV.setLinkage(DevRoots.count(&GV) ? GlobalValue::ExternalLinkage
                                      : GlobalValue::InternalLinkage);
  }
  StringMap<std::string> Locations = callLocations(*Dev);
  if (Error E = lowerForDevice(*Dev)) {
    reportError(M, "device code exported by " + M.getSourceFileName() + ": " +
                       toString(std::move(E)));
    return;
  }
  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(*Dev, &VOS)) {
    reportError(M, "internal error: the exported device code of " +
                       M.getSourceFileName() + " is invalid: " + VerifyMsg);
    return;
  }
  if (TM)
    optimizeDeviceModule(*Dev, *TM, OptimizationLevel::O2,
                         /*LoopTransforms=*/false);

  Link.Source = M.getSourceFileName();
  for (Function *F : Roots) {
    auto *DevF = cast<Function>(VMap[F]);
    assert(DevF->hasExternalLinkage() && "an export keeps its symbol");
    ++NumExports;
    Link.Exports.push_back(
        {DevF->getName().str(), typeText(*DevF), hashExport(*DevF)});
    SetVector<GlobalValue *> R = collectReachable(*DevF, StageFunctions());
    for (DeviceImport &I : findImports(R.getArrayRef(), DevF->getName(),
                                       /*FromExport=*/true, Locations))
      Link.Imports.push_back(std::move(I));
  }
  raw_string_ostream OS(Bitcode);
  WriteBitcodeToFile(*Dev, OS);
  OS.flush();
  Link.Bitcode = Bitcode;
}

} // namespace mstage
