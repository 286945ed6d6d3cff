//===- DeviceOptimizer.cpp - Optimize device modules and emit PTX ---------===//
#include "transforms/DeviceOptimizer.h"
#include "transforms/DeviceDebugInfo.h"
#include "transforms/DeviceRetarget.h"
#include "transforms/LargeLoopUnroll.h"
#include "transforms/ParameterRemat.h"
#include "transforms/UniformVersioning.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-optimizer"

STATISTIC(NumModulesOptimized,
          "Device modules run through the default pipeline");
STATISTIC(NumPTXEmitted, "Device modules emitted as PTX");

namespace mstage {

static Expected<const Target *> nvptxTarget() {
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(Triple(NVPTXTriple), Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "NVPTX target unavailable: " + Err);
  return T;
}

// The oldest architecture mstage compiles for: NVPTX still knows sm_20 to
// sm_37, but no ptxas or driver of a supported CUDA takes them.
static constexpr unsigned OldestArch = 50;

// Asks NVPTX's own processor table, so that the list follows LLVM: given an
// unknown CPU, LLVM would only warn and compile for no architecture.
Error checkNVPTXArch(StringRef Arch) {
  Expected<const Target *> T = nvptxTarget();
  if (!T)
    return T.takeError();
  std::unique_ptr<MCSubtargetInfo> STI(
      (*T)->createMCSubtargetInfo(Triple(NVPTXTriple), "", ""));
  if (!STI)
    return createStringError(inconvertibleErrorCode(),
                             "NVPTX has no subtarget information");
  auto Number = [](StringRef Name) {
    unsigned N = 0;
    Name.drop_front(Name.find_first_of("0123456789")).consumeInteger(10, N);
    return N;
  };
  bool Known = STI->isCPUStringValid(Arch);
  if (Known && Number(Arch) >= OldestArch)
    return Error::success();
  // In numeric order (the table's is by name: sm_100 before sm_20).
  SmallVector<StringRef, 64> Names;
  for (const SubtargetSubTypeKV &CPU : STI->getAllProcessorDescriptions())
    if (Number(CPU.Key) >= OldestArch)
      Names.push_back(CPU.Key);
  llvm::sort(Names, [&](StringRef A, StringRef B) {
    return std::make_pair(Number(A), A) < std::make_pair(Number(B), B);
  });
  std::string Supported = join(Names, ", ");
  return createStringError(
      inconvertibleErrorCode(),
      "'" + Arch + "' is " +
          (Known ? "older than the oldest architecture mstage supports, sm_" +
                       std::to_string(OldestArch)
                 : std::string("not an architecture the NVPTX back end "
                               "knows")) +
          " (supported: " + Supported + ")");
}

Expected<std::unique_ptr<TargetMachine>>
createNVPTXTargetMachine(StringRef Arch) {
  if (Error E = checkNVPTXArch(Arch))
    return std::move(E);
  Triple TT(NVPTXTriple);
  Expected<const Target *> T = nvptxTarget();
  if (!T)
    return T.takeError();
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(
      (*T)->createTargetMachine(TT, Arch, "", Opts, std::nullopt, std::nullopt,
                                CodeGenOptLevel::Aggressive));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create an NVPTX target machine for " +
                                 Arch);
  return std::move(TM);
}

void optimizeDeviceModule(Module &M, TargetMachine &TM, OptimizationLevel Level,
                          bool LoopTransforms) {
  assert(M.getTargetTriple().isNVPTX() && "device code is retargeted first");
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << M.getModuleIdentifier() << " at O"
                    << Level.getSpeedupLevel()
                    << (LoopTransforms ? "" : ", loops kept") << "\n");
  ++NumModulesOptimized;
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = LoopTransforms;
  PTO.LoopVectorization = LoopTransforms;
  PTO.SLPVectorization = LoopTransforms;
  PTO.LoopInterleaving = LoopTransforms;

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM, PTO);
  // Before the late unroller: the JIT's raised partial-unroll threshold is
  // for small loop bodies (transforms/LargeLoopUnroll.h).
  if (LoopTransforms)
    PB.registerVectorizerStartEPCallback(
        [](FunctionPassManager &FPM, OptimizationLevel L) {
          FPM.addPass(KeepLargeLoopsRolledPass(int(L.getSpeedupLevel())));
        });
  // After inlining, where a library function's tests of its arguments show
  // in the kernel's loops (transforms/UniformVersioning.h). Only for the
  // final code: not before the launch is known (staged values may fold the
  // tests), nor for the quick tier-0 code.
  if (LoopTransforms)
    PB.registerScalarOptimizerLateEPCallback(
        [](FunctionPassManager &FPM, OptimizationLevel L) {
          if (L.getSpeedupLevel() >= 2)
            FPM.addPass(UniformVersioningPass());
        });
  // Last, after LICM has hoisted them: kernel parameters are reloaded at
  // their uses in loops rather than held in registers
  // (transforms/ParameterRemat.h).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel L, ThinOrFullLTOPhase) {
        if (L.getSpeedupLevel() >= 2)
          MPM.addPass(createModuleToFunctionPassAdaptor(ParameterRematPass()));
      });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  // O0 (a unit built with -g at -O0): clang -O0's pipeline (always-inline
  // functions, NVPTX's own passes).
  ModulePassManager MPM = Level == OptimizationLevel::O0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

void removeUnreachedCode(Module &M) {
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  GlobalDCEPass().run(M, MAM);
}

void runFunctionPasses(Function &F, FunctionPassManager &FPM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FPM.run(F, FAM);
}

Expected<std::string> emitPTX(Module &M, TargetMachine &TM) {
  M.setDataLayout(TM.createDataLayout());
  SmallString<0> PTX;
  raw_svector_ostream OS(PTX);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile))
    return createStringError(inconvertibleErrorCode(),
                             "the NVPTX target cannot emit assembly");
  PM.run(M);
  ++NumPTXEmitted;
  return dropUnusedDebugLabels(PTX);
}

} // namespace mstage
