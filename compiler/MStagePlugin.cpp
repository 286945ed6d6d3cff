//===- MStagePlugin.cpp - Clang and LLVM plugin entry points -------------===//
//
// One shared object, loaded twice by mstage++: with -fplugin it adds an AST
// action that tags and checks kernels; with -fpass-plugin it registers the
// kernel extraction pass at the start of the optimization pipeline.
//
//===----------------------------------------------------------------------===//
#include "KernelChecker.h"
#include "KernelExtraction.h"
#include "KernelTagger.h"
#include "PluginOptions.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace clang;

namespace {

class KernelConsumer : public ASTConsumer {
public:
  void Initialize(ASTContext &C) override { Ctx = &C; }

  // Kernel entries are template instantiations; each reaches the consumers
  // here, before code generation sees it, so the tag is emitted with it.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->hasBody()) {
          if (mstage::isKernelEntry(FD))
            mstage::tagKernelEntry(*Ctx, FD, UsedNames);
          else if (mstage::isStageEval(FD))
            mstage::tagStageEval(*Ctx, FD);
        }
    return true;
  }

  void HandleTranslationUnit(ASTContext &C) override {
    for (const FunctionDecl *Entry : mstage::findKernelEntries(C))
      mstage::checkKernel(C, Entry);
  }

private:
  ASTContext *Ctx = nullptr;
  llvm::StringMap<unsigned> UsedNames;
};

class KernelAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<KernelConsumer>();
  }
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Arg == "strip-debug-info") {
        mstage::setStripHostDebugInfo(true);
      } else if (Arg == "no-stage-loop-check") {
        mstage::setCheckStageLoops(false);
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "mstage: unknown plugin argument '%0'"))
            << Arg;
        return false;
      }
    }
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<KernelAction>
    X("mstage", "tag and check mstage kernels");

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mstage", "0.1", [](llvm::PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
                  MPM.addPass(mstage::KernelExtractionPass());
                });
          }};
}
