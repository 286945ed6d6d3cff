//===- Passes.cpp - mstage's transforms as named passes -------------------===//
//
// Each pass calls the transform that the kernel extraction or the JIT calls,
// with what they would give it; errors are reported through the context, as
// the extraction reports them.
//
//===----------------------------------------------------------------------===//
#include "plugin/Passes.h"
#include "formats/PointerSlots.h"
#include "plugin/PluginOptions.h"
#include "transforms/CaptureInMemory.h"
#include "transforms/DeviceAtomics.h"
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceComplex.h"
#include "transforms/DeviceExports.h"
#include "transforms/DevicePrintf.h"
#include "transforms/DeviceRetarget.h"
#include "transforms/DeviceSharedArrays.h"
#include "transforms/Diagnostics.h"
#include "transforms/GenericKernel.h"
#include "transforms/KernelEntries.h"
#include "transforms/KernelEntryWait.h"
#include "transforms/LaunchFacts.h"
#include "transforms/SmallCopies.h"
#include "transforms/StageSlicing.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {
namespace {

void reportError(Module &M, StringRef Pass, const Twine &Msg) {
  mstage::reportError(M, Pass + ": " + Msg);
}

// E, to C's sink when it has one (KernelChoice), else to the context. The
// sink keeps the first error, as a compile stops at its first.
void reportError(Module &M, StringRef Pass, const KernelChoice &C, Error E) {
  if (!C.Failure)
    return reportError(M, Pass, toString(std::move(E)));
  if (Error Earlier = std::move(*C.Failure)) {
    consumeError(std::move(E));
    *C.Failure = std::move(Earlier);
    return;
  }
  *C.Failure = std::move(E);
}

void reportError(Module &M, StringRef Pass, const KernelChoice &C,
                 const Twine &Msg) {
  reportError(M, Pass, C, createStringError(inconvertibleErrorCode(), Msg));
}

// The kernel that C names, or the module's only ptx_kernel; null after
// reporting why there is none.
Function *chooseKernel(Module &M, StringRef Pass, const KernelChoice &C) {
  if (!C.Kernel.empty()) {
    Function *F = M.getFunction(C.Kernel);
    if (!F || F->isDeclaration())
      reportError(M, Pass, C,
                  "the module defines no kernel '" + C.Kernel + "'");
    return F && !F->isDeclaration() ? F : nullptr;
  }
  Function *Found = nullptr;
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel && !F.isDeclaration()) {
      if (Found) {
        reportError(M, Pass, C,
                    "the module has several kernels: name one (kernel=NAME)");
        return nullptr;
      }
      Found = &F;
    }
  if (!Found)
    reportError(M, Pass, C, "the module has no ptx_kernel function");
  return Found;
}

} // namespace

PreservedAnalyses StageSlicingPass::run(Module &M, ModuleAnalysisManager &) {
  StageFunctions StageFns = findStageFunctions(M);
  bool Changed = false;
  for (const KernelEntry &K : findKernelEntries(M)) {
    StagedBody Staged;
    bool OK = prepareStagedBody(M, *K.F, K.Info.Name, kernelFile(K.Info),
                                StageFns, checkStageLoops(), Staged);
    if (!Staged.OwnsBody) {
      assert(Staged.Sites.empty() && "sites are found only in a body copy");
      continue;
    }
    Changed = true;
    if (!OK) {
      Staged.Body->eraseFromParent();
      continue;
    }
    // What the device module gets: the sites read their placeholders.
    SmallVector<CallInst *, 8> Calls;
    for (const StageSiteIR &Site : Staged.Sites)
      Calls.push_back(Site.Call);
    replaceStageSites(M, Calls, Staged.Sites);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses DeviceRetargetPass::run(Module &M, ModuleAnalysisManager &) {
  retargetToNVPTX(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceBuiltinsPass::run(Module &M, ModuleAnalysisManager &) {
  lowerDeviceBuiltins(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceSharedArraysPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  lowerSharedArrays(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceComplexPass::run(Module &M, ModuleAnalysisManager &) {
  defineComplexHelpers(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceAssertPass::run(Module &M, ModuleAnalysisManager &) {
  lowerAssert(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceAtomicScopesPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  scopeDeviceAtomics(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceAtomicFencesPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  fenceAtomicReadModifyWrites(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses DevicePrintfPass::run(Module &M, ModuleAnalysisManager &) {
  if (Error E = lowerPrintf(M))
    reportError(M, "mstage-lower-printf", toString(std::move(E)));
  return PreservedAnalyses::none();
}

PreservedAnalyses DeviceLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  if (Error E = lowerForDevice(M))
    reportError(M, "mstage-lower-for-device", toString(std::move(E)));
  return PreservedAnalyses::none();
}

PreservedAnalyses KernelSpecializationPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  constexpr StringLiteral Pass = "mstage-specialize";
  SmallVector<StringRef, 4> Values(Opts.StagedValues.begin(),
                                   Opts.StagedValues.end());
  if (Error E = foldStagedValues(M, Values))
    reportError(M, Pass, Opts, std::move(E));
  if (Opts.Config)
    if (Function *K = chooseKernel(M, Pass, Opts))
      foldLaunchConfig(M, K->getName(), *Opts.Config, Opts.FoldSharedBytes);
  return PreservedAnalyses::none();
}

PreservedAnalyses LaunchFactsPass::run(Module &M, ModuleAnalysisManager &) {
  constexpr StringLiteral Pass = "mstage-launch-facts";
  Function *K = chooseKernel(M, Pass, Opts);
  if (!K)
    return PreservedAnalyses::all();
  FactsPass When =
      Opts.After ? FactsPass::AfterOptimization : FactsPass::BeforeOptimization;
  if (!Opts.Given.empty()) {
    applyLaunchFacts(*K, Opts.Slots, Opts.Given, When);
    return PreservedAnalyses::none();
  }
  std::vector<PointerSlot> Slots = findPointerSlots(*K);
  auto Facts = parseLaunchFacts(Opts.Facts, Slots.size());
  if (!Facts) {
    reportError(M, Pass, Opts, Facts.takeError());
    return PreservedAnalyses::all();
  }
  applyLaunchFacts(*K, Slots, *Facts, When);
  return PreservedAnalyses::none();
}

PreservedAnalyses SmallCopiesPass::run(Function &F, FunctionAnalysisManager &) {
  if (!Only.empty() && F.getName() != Only)
    return PreservedAnalyses::all();
  return expandSmallCopies(F) ? PreservedAnalyses::none()
                              : PreservedAnalyses::all();
}

PreservedAnalyses CaptureInMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  constexpr StringLiteral Pass = "mstage-capture-in-memory";
  Function *K = chooseKernel(M, Pass, Opts);
  if (!K)
    return PreservedAnalyses::all();
  if (Opts.Mask) {
    if (Error E = moveParamsToMemory(*K, *Opts.Mask))
      reportError(M, Pass, Opts, std::move(E));
    return PreservedAnalyses::none();
  }
  auto Moved = moveLargeParams(*K, Opts.Arch, Opts.StagedBytes,
                               Opts.NumParams.value_or(K->arg_size()));
  if (!Moved)
    reportError(M, Pass, Opts, Moved.takeError());
  return PreservedAnalyses::none();
}

PreservedAnalyses GenericKernelPass::run(Module &M, ModuleAnalysisManager &) {
  constexpr StringLiteral Pass = "mstage-generic-kernel";
  Function *K = chooseKernel(M, Pass, Opts);
  if (!K)
    return PreservedAnalyses::all();
  std::string Name = K->getName().str(); // K is replaced
  if (Error E = makeGenericKernel(M, Name, Opts.SiteSizes))
    reportError(M, Pass, Opts, std::move(E));
  return PreservedAnalyses::none();
}

PreservedAnalyses KernelEntryWaitPass::run(Module &M, ModuleAnalysisManager &) {
  Function *K = chooseKernel(M, "mstage-kernel-entry-wait", Opts);
  if (!K)
    return PreservedAnalyses::all();
  addKernelEntryWait(*K);
  return PreservedAnalyses::none();
}

} // namespace mstage
