//===- Passes.h - mstage's transforms as named passes -----------*- C++ -*-===//
//
// Each transform of passes/ as a new-PM pass, so that `opt` can run it alone
// on a small IR file (test/passes/transforms/). The passes call the same
// functions as the kernel extraction and the JIT; what the runtime knows at a
// launch (staged values, launch extents, launch facts) is given as pass
// parameters:
//
//   opt -load-pass-plugin=build/lib/MStagePasses.so
//       -passes='mstage-specialize<grid=4x1x1;block=64x1x1;stage=0:i32:7>'
//
// registerMStagePasses lists the names; docs/architecture.md the parameters.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_PLUGIN_PASSES_H
#define MSTAGE_PASSES_PLUGIN_PASSES_H

#include "formats/PointerSlots.h"
#include "transforms/KernelSpecialization.h"
#include "transforms/LaunchFacts.h"

#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class PassBuilder;
}

namespace mstage {

// Registers every pass below by its name with PB's pipeline parser.
void registerMStagePasses(llvm::PassBuilder &PB);

// A pass that needs one kernel of a device module names it; without a name,
// the module's only ptx_kernel. Its errors go to the module's context (opt),
// or, when Failure is set, to *Failure, which keeps the first (the JIT, which
// names the kernel in its own message).
struct KernelChoice {
  std::string Kernel;
  llvm::Error *Failure = nullptr;
};

// mstage-stage-slicing, on a host module: each kernel entry's stage() sites
// become host evaluators (__mstage_eval.<kernel>.<site>) and reads of
// placeholders (__mstage_stage.<site>) in a copy of the entry with its calls
// inlined (__mstage_body.<kernel>); a site that cannot be staged is an
// error, as in a compile.
struct StageSlicingPass : llvm::PassInfoMixin<StageSlicingPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// The device lowering steps (lowerForDevice runs them in this order):
// mstage-retarget, mstage-lower-builtins (which includes
// mstage-shared-arrays and mstage-complex), mstage-lower-assert,
// mstage-scope-atomics, mstage-fence-atomics, mstage-lower-printf; and all of
// them as mstage-lower-for-device.
struct DeviceRetargetPass : llvm::PassInfoMixin<DeviceRetargetPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceBuiltinsPass : llvm::PassInfoMixin<DeviceBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceSharedArraysPass : llvm::PassInfoMixin<DeviceSharedArraysPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceComplexPass : llvm::PassInfoMixin<DeviceComplexPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceAssertPass : llvm::PassInfoMixin<DeviceAssertPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceAtomicScopesPass : llvm::PassInfoMixin<DeviceAtomicScopesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceAtomicFencesPass : llvm::PassInfoMixin<DeviceAtomicFencesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DevicePrintfPass : llvm::PassInfoMixin<DevicePrintfPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};
struct DeviceLoweringPass : llvm::PassInfoMixin<DeviceLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// mstage-specialize<kernel=K;grid=XxYxZ;block=XxYxZ;shared=N;stage=I:T:V...>:
// what the JIT folds at a launch (foldStagedValues, foldLaunchConfig). Each
// stage= gives placeholder I its value, of type T (i8, i16, i32, i64, f32,
// f64, or x for hex bytes); the launch configuration is folded when grid,
// block or shared is given, its shared memory size only when shared is.
struct SpecializeOptions : KernelChoice {
  std::vector<std::string> StagedValues; // bytes, per site
  std::optional<LaunchConfig> Config;
  bool FoldSharedBytes = false;
};
struct KernelSpecializationPass
    : llvm::PassInfoMixin<KernelSpecializationPass> {
  explicit KernelSpecializationPass(SpecializeOptions Opts)
      : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  SpecializeOptions Opts;
};

// mstage-launch-facts<kernel=K;facts=A16 B16 ?;after>: applyLaunchFacts
// with the facts as mstage-ptx --views writes them, one per pointer slot of
// the kernel; `after` is the pass after the optimizer. The JIT gives the
// facts as made at the launch (Given, one per slot of Slots, the kernel
// blob's) instead of as text.
struct LaunchFactsOptions : KernelChoice {
  std::string Facts;
  bool After = false;
  std::vector<PointerSlot> Slots;
  std::vector<SlotFact> Given;
};
struct LaunchFactsPass : llvm::PassInfoMixin<LaunchFactsPass> {
  explicit LaunchFactsPass(LaunchFactsOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  LaunchFactsOptions Opts;
};

// mstage-small-copies, a function pass: expandSmallCopies; with Only set
// (the JIT: the kernel, before its launch facts), of that function alone.
struct SmallCopiesPass : llvm::PassInfoMixin<SmallCopiesPass> {
  explicit SmallCopiesPass(std::string Only = "") : Only(std::move(Only)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
  static bool isRequired() { return true; }
  std::string Only;
};

// mstage-capture-in-memory<kernel=K;arch=sm_90;staged-bytes=N;params=N>:
// moveLargeParams (params: the launch's parameters, by default all of the
// kernel's); with mask=M, moveParamsToMemory of exactly the parameters in M.
struct CaptureInMemoryOptions : KernelChoice {
  std::string Arch = "sm_90";
  uint64_t StagedBytes = 0;
  std::optional<unsigned> NumParams;
  std::optional<uint64_t> Mask;
};
struct CaptureInMemoryPass : llvm::PassInfoMixin<CaptureInMemoryPass> {
  explicit CaptureInMemoryPass(CaptureInMemoryOptions Opts)
      : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  CaptureInMemoryOptions Opts;
};

// mstage-generic-kernel<kernel=K;sites=4:8>: makeGenericKernel with the
// stage sites' sizes.
struct GenericKernelOptions : KernelChoice {
  std::vector<uint32_t> SiteSizes;
};
struct GenericKernelPass : llvm::PassInfoMixin<GenericKernelPass> {
  explicit GenericKernelPass(GenericKernelOptions Opts)
      : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  GenericKernelOptions Opts;
};

// mstage-kernel-entry-wait<kernel=K>: addKernelEntryWait (griddepcontrol
// at the kernel's entry, for a programmatic launch; MSTAGE_PDL).
struct KernelEntryWaitPass : llvm::PassInfoMixin<KernelEntryWaitPass> {
  explicit KernelEntryWaitPass(KernelChoice Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  KernelChoice Opts;
};

} // namespace mstage

#endif
