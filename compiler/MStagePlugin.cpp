//===- MStagePlugin.cpp - Clang and LLVM plugin entry points -------------===//
//
// One shared object, loaded twice by mstage++: with -fplugin it adds an AST
// action that tags and checks kernels; with -fpass-plugin it registers the
// kernel extraction pass at the start of the optimization pipeline, and the
// pass that embeds the kernels' ahead-of-time code at its end (or, from
// mstage++ -c, writes it into an object of its own after the host object).
//
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"
#include "KernelChecker.h"
#include "KernelTagger.h"
#include "aot/AotCompile.h"
#include "aot/WorkerTimeTrace.h"
#include "plugin/KernelExtraction.h"
#include "plugin/PluginOptions.h"
#include "transforms/DeviceExports.h"
#include "transforms/DeviceOptimizer.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace clang;

namespace {

// Where the preprocessor tests __CUDA_ARCH__ (#ifdef, #ifndef, #if, #elif).
// mstage++ never defines it: kernel code is compiled once, as host code.
class CudaArchTests : public PPCallbacks {
public:
  CudaArchTests(const SourceManager &SM, const LangOptions &LO,
                std::shared_ptr<std::vector<SourceLocation>> Found)
      : SM(SM), LO(LO), Found(std::move(Found)) {}

  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &) override {
    note(Loc, Name);
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &) override {
    note(Loc, Name);
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &) override {
    note(Loc, Name);
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &) override {
    note(Loc, Name);
  }
  void If(SourceLocation Loc, SourceRange Condition,
          ConditionValueKind) override {
    noteIf(Loc, Condition);
  }
  void Elif(SourceLocation Loc, SourceRange Condition, ConditionValueKind,
            SourceLocation) override {
    noteIf(Loc, Condition);
  }

private:
  void note(SourceLocation Loc, const Token &Name) {
    if (const IdentifierInfo *II = Name.getIdentifierInfo();
        II && II->getName() == CudaArch)
      Found->push_back(Loc);
  }
  void noteIf(SourceLocation Loc, SourceRange Condition) {
    StringRef Text =
        Lexer::getSourceText(CharSourceRange::getTokenRange(Condition), SM, LO);
    if (Text.contains(CudaArch))
      Found->push_back(Loc);
  }

  static constexpr llvm::StringLiteral CudaArch = "__CUDA_ARCH__";
  const SourceManager &SM;
  const LangOptions &LO;
  std::shared_ptr<std::vector<SourceLocation>> Found;
};

class KernelConsumer : public ASTConsumer {
public:
  KernelConsumer(CompilerInstance &CI,
                 std::shared_ptr<std::vector<SourceLocation>> CudaArchTests)
      : CI(CI), CudaArchTests(std::move(CudaArchTests)) {}

  void Initialize(ASTContext &C) override { Ctx = &C; }

  // Kernel entries are template instantiations; each reaches the consumers
  // here, before code generation sees it, so the tag is emitted with it.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    assert(Ctx && "Initialize comes before the first declaration");
    for (Decl *D : Group)
      if (mayLabelKernels(D))
        mstage::findKernelLabels(*Ctx, D, Names);
    for (Decl *D : Group)
      if (auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->hasBody()) {
          if (mstage::isKernelEntry(FD)) {
            mstage::tagKernelEntry(*Ctx, FD, Names);
            // The entry is 'used', so code generation emits it right away.
            disableSanitizers(FD);
          } else if (mstage::isStageEval(FD)) {
            mstage::tagStageEval(*Ctx, FD);
          }
        }
    for (Decl *D : Group)
      tagDeviceExports(D);
    return true;
  }

  // Whether D's bodies may hold kernel("label", ...) calls: the user's code,
  // and every template instantiation (the algorithms label theirs), which
  // arrives here before the kernel entries it instantiates.
  bool mayLabelKernels(const Decl *D) const {
    if (auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->getTemplateInstantiationPattern())
      return true;
    return !Ctx->getSourceManager().isInSystemHeader(D->getLocation());
  }

  // Definitions that other files' kernels may call, tagged before code
  // generation emits them (KernelChecker.h), and device_global variables.
  void tagDeviceExports(Decl *D) {
    if (auto *DC = dyn_cast<DeclContext>(D);
        DC && isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
      for (Decl *Inner : DC->decls())
        tagDeviceExports(Inner);
      return;
    }
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      if (mstage::isDeviceExportCandidate(*Ctx, FD))
        FD->addAttr(AnnotateAttr::CreateImplicit(
            *Ctx, mstage::DeviceExportAnnotation, nullptr, 0));
    // Device globals too, for the runtime to find in the modules it loads.
    if (auto *VD = dyn_cast<VarDecl>(D)) {
      mstage::tagDeviceGlobal(*Ctx, VD);
      if (mstage::isExternDeviceGlobal(VD))
        ExternGlobals.insert(VD->getCanonicalDecl());
    }
  }

  // The extern device globals that the unit uses and does not define get a
  // marker (KernelTagger.h), which this hands to code generation: at the end
  // of the unit, when a definition after the declaration has been seen.
  void markExternDeviceGlobals() {
    unsigned Index = 0;
    for (VarDecl *VD : ExternGlobals)
      if (VD->isUsed() && !VD->getDefinition())
        CI.getASTConsumer().HandleTopLevelDecl(
            DeclGroupRef(mstage::markExternDeviceGlobal(*Ctx, VD, Index++)));
  }

  void HandleTranslationUnit(ASTContext &C) override {
    markExternDeviceGlobals();
    std::vector<const FunctionDecl *> Reached;
    for (const FunctionDecl *Entry : mstage::findKernelEntries(C))
      mstage::checkKernel(C, Entry, &Reached);
    warnOfCudaArchTests(C, Reached);
    if (C.getLangOpts().Sanitize.empty())
      return;
    // Sanitizer checks in kernel code would call the sanitizer runtime, which
    // is in host memory: the code kernels reach is not instrumented, and the
    // rest of the program keeps its sanitizers. This consumer runs before
    // code generation, which emits inline, template and static functions at
    // the end of the translation unit, so the attribute is in time for them;
    // a function emitted when it was parsed has its checks already.
    DiagnosticsEngine &D = C.getDiagnostics();
    llvm::DenseSet<const FunctionDecl *> Reported;
    for (const FunctionDecl *FD : Reached) {
      if (mstage::isKernelEntry(FD))
        continue;
      if (C.DeclMustBeEmitted(FD) && hasFrontEndChecks(C, FD) &&
          Reported.insert(FD).second)
        D.Report(FD->getLocation(),
                 mstage::diagID(D, mstage::Diag::SanitizedCallee))
            << FD;
      disableSanitizers(const_cast<FunctionDecl *>(FD));
    }
  }

private:
  // A __CUDA_ARCH__ test in the body of a function that kernels reach: the
  // GPU runs its host branch, as the CPU back end does.
  void warnOfCudaArchTests(ASTContext &C,
                           const std::vector<const FunctionDecl *> &Reached) {
    if (CudaArchTests->empty())
      return;
    const SourceManager &SM = C.getSourceManager();
    DiagnosticsEngine &D = C.getDiagnostics();
    unsigned ID = mstage::diagID(D, mstage::Diag::CudaArchTest);
    for (SourceLocation Loc : *CudaArchTests) {
      // A library's own tests are not the user's to change.
      if (SM.isInSystemHeader(Loc))
        continue;
      for (const FunctionDecl *FD : Reached)
        if (const Stmt *Body = FD->getBody();
            Body &&
            SM.isPointWithin(Loc, Body->getBeginLoc(), Body->getEndLoc())) {
          D.Report(Loc, ID);
          break;
        }
    }
  }

  void disableSanitizers(FunctionDecl *FD) {
    if (Ctx->getLangOpts().Sanitize.empty())
      return;
    StringRef All = "all";
    FD->addAttr(NoSanitizeAttr::CreateImplicit(*Ctx, &All, 1));
  }

  // Whether code generation has put sanitizer checks into FD's body:
  // -fsanitize=undefined and its relatives instrument as they generate code,
  // address, thread and memory only mark the function for a later pass,
  // which runs after the kernels are extracted.
  static bool hasFrontEndChecks(const ASTContext &C, const FunctionDecl *FD) {
    SanitizerMask Checks =
        C.getLangOpts().Sanitize.Mask &
        (SanitizerKind::Undefined | SanitizerKind::Integer |
         SanitizerKind::ImplicitConversion | SanitizerKind::Nullability |
         SanitizerKind::CFI | SanitizerKind::KCFI);
    for (const auto *Attr : FD->specific_attrs<NoSanitizeAttr>())
      Checks &= ~Attr->getMask();
    return bool(Checks);
  }

  CompilerInstance &CI;
  ASTContext *Ctx = nullptr;
  mstage::KernelNames Names;
  llvm::SetVector<VarDecl *> ExternGlobals;
  std::shared_ptr<std::vector<SourceLocation>> CudaArchTests;
};

class KernelAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // mstage's headers need C++17; an older standard would give a page of
    // template errors. A fatal error stops clang before them.
    const LangOptions &LO = CI.getLangOpts();
    if (LO.CPlusPlus && !LO.CPlusPlus17) {
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(mstage::diagID(D, mstage::Diag::CxxStandard))
          << LangStandard::getLangStandardForKind(LO.LangStd).getName();
    }
    mstage::setTimeTraceGranularity(CI.getFrontendOpts().TimeTraceGranularity);
    auto Tests = std::make_shared<std::vector<SourceLocation>>();
    CI.getPreprocessor().addPPCallbacks(std::make_unique<CudaArchTests>(
        CI.getSourceManager(), CI.getLangOpts(), Tests));
    return std::make_unique<KernelConsumer>(CI, std::move(Tests));
  }
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Arg == "strip-debug-info") {
        mstage::setStripHostDebugInfo(true);
      } else if (Arg == "no-stage-loop-check") {
        mstage::setCheckStageLoops(false);
      } else if (llvm::StringRef Value = Arg;
                 Value.consume_front("aot-threads=")) {
        unsigned Threads;
        if (Value.getAsInteger(10, Threads)) {
          DiagnosticsEngine &D = CI.getDiagnostics();
          D.Report(mstage::diagID(D, mstage::Diag::UnknownPluginArgument))
              << Arg;
          return false;
        }
        mstage::setAotThreads(Threads);
      } else if (llvm::StringRef Value = Arg;
                 Value.consume_front("aot-object=") && !Value.empty()) {
        mstage::setAotObjectPath(Value.str());
      } else if (llvm::StringRef(Arg).starts_with("aot-arch=")) {
        if (!parseAotArchs(CI, llvm::StringRef(Arg).drop_front(9)))
          return false;
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(mstage::diagID(D, mstage::Diag::UnknownPluginArgument)) << Arg;
        return false;
      }
    }
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  // -mstage-arch=sm_80,sm_90 (or none), from mstage++.
  static bool parseAotArchs(const CompilerInstance &CI, llvm::StringRef List) {
    std::vector<std::string> Archs;
    if (List != "none") {
      llvm::SmallVector<llvm::StringRef, 4> Items;
      List.split(Items, ',');
      for (llvm::StringRef A : Items) {
        if (llvm::Error E = mstage::checkNVPTXArch(A)) {
          DiagnosticsEngine &D = CI.getDiagnostics();
          D.Report(mstage::diagID(D, mstage::Diag::BadAotArch))
              << List << llvm::toString(std::move(E));
          return false;
        }
        if (llvm::find(Archs, A.str()) == Archs.end())
          Archs.push_back(A.str());
      }
    }
    mstage::setAotArchs(std::move(Archs));
    return true;
  }
};

// Runs after code generation has written the host object: with
// aot-object=PATH, the ahead-of-time images that compiled beside it go into
// PATH (mstage++ joins the two objects).
class AotObjectConsumer : public ASTConsumer {
public:
  explicit AotObjectConsumer(DiagnosticsEngine &D) : D(D) {}
  void HandleTranslationUnit(ASTContext &) override {
    if (llvm::Error E = mstage::writeDeferredAotObject())
      D.Report(mstage::diagID(D, mstage::Diag::AotObjectFailed))
          << llvm::toString(std::move(E));
  }

private:
  DiagnosticsEngine &D;
};

class AotObjectAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<AotObjectConsumer>(CI.getDiagnostics());
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddAfterMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<KernelAction>
    X("mstage", "tag and check mstage kernels");
static FrontendPluginRegistry::Add<AotObjectAction>
    Y("mstage-aot-object",
      "write the ahead-of-time images after the host object");

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mstage", "0.1", [](llvm::PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
                  MPM.addPass(mstage::KernelExtractionPass());
                });
            // The ahead-of-time generic code compiles while clang optimizes
            // the host code, and is embedded at the end, or, with
            // aot-object=PATH, goes into PATH after the host code generation
            // (AotObjectAction).
            PB.registerOptimizerLastEPCallback([](llvm::ModulePassManager &MPM,
                                                  llvm::OptimizationLevel,
                                                  llvm::ThinOrFullLTOPhase) {
              MPM.addPass(mstage::AotEmbedPass{{}, mstage::aotObjectPath()});
            });
          }};
}
