//===- DeviceOptimizer.cpp - Optimize device modules and emit PTX ---------===//
#include "DeviceOptimizer.h"
#include "DeviceRetarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace llvm;

namespace mstage {

Expected<std::unique_ptr<TargetMachine>>
createNVPTXTargetMachine(StringRef Arch) {
  Triple TT(NVPTXTriple);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "NVPTX target unavailable: " + Err);
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(TT, Arch, "", Opts, std::nullopt, std::nullopt,
                             CodeGenOptLevel::Aggressive));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create an NVPTX target machine for " +
                                 Arch);
  return std::move(TM);
}

void optimizeDeviceModule(Module &M, TargetMachine &TM, OptimizationLevel Level,
                          bool LoopTransforms) {
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
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
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
  return std::string(PTX.str());
}

} // namespace mstage
