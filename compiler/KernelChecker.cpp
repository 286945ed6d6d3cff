//===- KernelChecker.cpp - Reject kernel code the GPU cannot run ---------===//
//
// checkKernel() first looks at the kernel object (the lambda's captures), then
// walks the functions reachable from the kernel entry breadth first. Each
// function body is scanned by a FunctionBodyChecker; the calls it finds are
// added to the worklist together with their call site, so that an error deep
// in the call graph can be traced back to the kernel with "called from" notes.
//
//===----------------------------------------------------------------------===//
#include "KernelChecker.h"
#include "DeviceLibraryFunctions.h"
#include "Diagnostics.h"
#include "KernelTagger.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/LambdaCapture.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PointerIntPair.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <tuple>

using namespace clang;

namespace mstage {
namespace {

// The IDs of the diagnostics, registered once per checker.
class KernelDiags {
public:
  explicit KernelDiags(DiagnosticsEngine &D) {
    for (unsigned K = 0; K != unsigned(Diag::NumDiags); ++K)
      IDs[K] = diagID(D, static_cast<Diag>(K));
  }
  unsigned operator[](Diag Kind) const {
    assert(Kind < Diag::NumDiags && "not a diagnostic of Diagnostics.def");
    return IDs[unsigned(Kind)];
  }

private:
  unsigned IDs[unsigned(Diag::NumDiags)];
};

// What is remembered across the kernels of one translation unit.
struct TranslationUnitState {
  // (diagnostic, location, subject) of every error reported, so that an error
  // in a function that several kernels reach is reported once.
  std::set<std::tuple<unsigned, SourceLocation::UIntTy, const void *>> Reported;
  // Whether a type contains 'long double'; the flag is "reached by value".
  llvm::DenseMap<llvm::PointerIntPair<const Type *, 1, bool>, bool>
      LongDoubleTypes;
};

} // namespace

static TranslationUnitState &getState(ASTContext &Ctx) {
  static llvm::DenseMap<const ASTContext *,
                        std::unique_ptr<TranslationUnitState>>
      States;
  std::unique_ptr<TranslationUnitState> &State = States[&Ctx];
  if (!State) {
    State = std::make_unique<TranslationUnitState>();
    Ctx.AddDeallocation(
        [](void *C) { States.erase(static_cast<const ASTContext *>(C)); },
        &Ctx);
  }
  return *State;
}

namespace {

class KernelChecker {
public:
  // Silent: report nothing, only find out whether there is an error.
  KernelChecker(ASTContext &Ctx, const FunctionDecl *Entry, bool Silent)
      : Ctx(Ctx), Diags(Ctx.getDiagnostics()), DiagIDs(Diags), Entry(Entry),
        State(getState(Ctx)), Silent(Silent) {}

  bool run();
  // Appends the functions checked: the entry and every definition it
  // reaches.
  void getReached(std::vector<const FunctionDecl *> &Out) const {
    Out.insert(Out.end(), Checked.begin(), Checked.end());
  }

  ASTContext &getContext() const { return Ctx; }
  const KernelDiags &diags() const { return DiagIDs; }
  bool isInSystemHeader(SourceLocation Loc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
  }

  // Records a call (or a reference) from the function being checked to
  // Callee at Loc: queues Callee if it has a body, reports it otherwise.
  void addCall(const FunctionDecl *Callee, SourceLocation Loc);
  // Checks a use of a variable: thread_local and host globals.
  void checkVariableUse(const VarDecl *VD, SourceLocation Loc);
  bool containsLongDouble(QualType T, bool ByValue = true);
  // Names the capture or kernel argument (or the member of one) that E
  // reads, when E's value comes from the host; empty otherwise.
  std::string hostSource(const Expr *E) const;

  // Reports error ID at Loc, with the call chain from the kernel to the
  // function being checked, unless it was already reported there. Subject
  // tells apart errors of one kind at one location. Returns whether the error
  // was emitted now.
  template <typename... ArgTs>
  bool error(SourceLocation Loc, unsigned ID, const void *Subject,
             const ArgTs &...Args) {
    // 0 marks the user call sites in State.Reported.
    assert(ID != 0 && "an error of Diagnostics.def");
    Failed = true;
    if (Silent)
      return false;
    if (!State.Reported.insert({ID, Loc.getRawEncoding(), Subject}).second)
      return false;
    // Inside the standard library one error per call from user code is
    // enough: using std::vector would otherwise give a dozen.
    if (isInSystemHeader(Loc))
      if (SourceLocation UserCall = findUserCallSite(); UserCall.isValid())
        if (!State.Reported.insert({0, UserCall.getRawEncoding(), nullptr})
                 .second)
          return false;
    {
      DiagnosticBuilder Builder = Diags.Report(Loc, ID);
      (void)(Builder << ... << Args);
    }
    noteCallChain();
    return true;
  }

private:
  struct CallSite {
    const FunctionDecl *Caller;
    SourceLocation Loc;
  };

  void checkKernelObject();
  void checkLambdaCaptures(const CXXRecordDecl *Lambda);
  void checkFunction(const FunctionDecl *FD);
  void addMemberDestructors(const CXXDestructorDecl *Dtor);
  void addDestructor(QualType T, SourceLocation Loc);
  bool isAvailableOnDevice(const FunctionDecl *FD) const;
  bool mayBeDefinedElsewhere(const FunctionDecl *FD) const;
  bool isKernelObjectMember(const FunctionDecl *FD) const;
  void noteCallChain();
  SourceLocation findUserCallSite() const;
  std::string describe(const FunctionDecl *FD) const;
  std::pair<std::string, bool> sharedArraySuggestion(const VarDecl *VD) const;

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  KernelDiags DiagIDs;
  const FunctionDecl *Entry;
  TranslationUnitState &State;
  // The class of the kernel object (the lambda), if it is a class.
  const CXXRecordDecl *KernelClass = nullptr;
  // The function whose body is being checked.
  const FunctionDecl *Current = nullptr;
  // The kernel lambda's by-value captures and the parameters of the kernel
  // object's call operator: values that come from the host.
  llvm::DenseSet<const ValueDecl *> Captures;
  llvm::DenseSet<const ValueDecl *> KernelParams;
  // Where each queued function (canonical declaration) was first called.
  llvm::DenseMap<const FunctionDecl *, CallSite> CalledFrom;
  std::deque<const FunctionDecl *> Worklist;
  std::vector<const FunctionDecl *> Checked;
  bool Silent;
  bool Failed = false;
};

// Scans one function body for what a kernel cannot do. Nested lambdas and
// local classes are not entered: their functions are checked when called.
// Unevaluated operands (sizeof, decltype, noexcept, ...), constant
// expressions and discarded 'if constexpr' branches are skipped.
class FunctionBodyChecker : public RecursiveASTVisitor<FunctionBodyChecker> {
  using Base = RecursiveASTVisitor<FunctionBodyChecker>;

public:
  explicit FunctionBodyChecker(KernelChecker &K)
      : K(K), Ctx(K.getContext()), DiagIDs(K.diags()) {}

  bool shouldVisitImplicitCode() const { return true; }

  // The C++ library's throws stop the launch on the device
  // (passes/transforms/DeviceThrows.h): what builds the exception object and
  // the library's catch handlers never run there, and are not checked.
  bool TraverseCXXThrowExpr(CXXThrowExpr *E) {
    return K.isInSystemHeader(E->getThrowLoc()) ||
           Base::TraverseCXXThrowExpr(E);
  }
  bool TraverseCXXTryStmt(CXXTryStmt *S) {
    if (K.isInSystemHeader(S->getTryLoc()))
      return TraverseStmt(S->getTryBlock());
    return Base::TraverseCXXTryStmt(S);
  }

  // Only the declarations that run code: variables and structured bindings.
  bool TraverseDecl(Decl *D) {
    if (!D || !isa<VarDecl, BindingDecl>(D))
      return true;
    return Base::TraverseDecl(D);
  }
  // Types and names hold no code that runs (VLA bounds aside).
  bool TraverseType(QualType, bool = true) { return true; }
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc) { return true; }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &) { return true; }

  // The captures are initialized here; the body runs when the lambda is
  // called, and is checked then.
  bool TraverseLambdaExpr(LambdaExpr *LE, DataRecursionQueue * = nullptr) {
    for (Expr *Init : LE->capture_inits())
      if (!TraverseStmt(Init))
        return false;
    return true;
  }

  bool TraverseIfStmt(IfStmt *S, DataRecursionQueue *Queue = nullptr);
  bool TraverseVarDecl(VarDecl *VD);
  bool dataTraverseStmtPre(Stmt *S);
  bool dataTraverseStmtPost(Stmt *S);

  bool VisitCallExpr(CallExpr *E);
  bool VisitDeclRefExpr(DeclRefExpr *E);
  bool VisitCXXConstructExpr(CXXConstructExpr *E);
  bool VisitCXXInheritedCtorInitExpr(CXXInheritedCtorInitExpr *E);
  bool VisitCXXNewExpr(CXXNewExpr *E);
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E);
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E);
  bool VisitVarDecl(VarDecl *VD);
  bool VisitCXXThrowExpr(CXXThrowExpr *E);
  bool VisitCXXTryStmt(CXXTryStmt *S);
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E);
  bool VisitAsmStmt(AsmStmt *S); // GCC and MS forms
  bool VisitCastExpr(CastExpr *E);
  bool VisitCompoundAssignOperator(CompoundAssignOperator *E);

private:
  void checkWideIntFloatConversion(const Expr *Operand, QualType From,
                                   QualType To, SourceLocation Loc);
  void checkHostFunctionPointer(const Expr *E, bool Called);

  KernelChecker &K;
  ASTContext &Ctx;
  const KernelDiags &DiagIDs;
  // Callee expressions of the calls seen, so that VisitDeclRefExpr does not
  // count a call twice.
  llvm::DenseSet<const Expr *> Callees;
  // The outermost expression or declaration of type 'long double' reported;
  // what it contains is not reported again.
  const Stmt *LongDoubleExpr = nullptr;
  bool InLongDoubleDecl = false;
  // How many stage() calls the traversal is inside: their arguments are
  // evaluated on the host.
  unsigned StageDepth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// FunctionBodyChecker
//===----------------------------------------------------------------------===//

bool FunctionBodyChecker::TraverseIfStmt(IfStmt *S, DataRecursionQueue *Queue) {
  if (S->isConsteval())
    return TraverseStmt(S->isNegatedConsteval() ? S->getThen() : S->getElse());
  if (!S->isConstexpr())
    return Base::TraverseIfStmt(S, Queue);
  if (!TraverseStmt(S->getInit()))
    return false;
  if (std::optional<Stmt *> Taken = S->getNondiscardedCase(Ctx))
    return TraverseStmt(*Taken);
  return true;
}

bool FunctionBodyChecker::TraverseVarDecl(VarDecl *VD) {
  bool Report = !LongDoubleExpr && !InLongDoubleDecl &&
                K.containsLongDouble(VD->getType());
  if (Report) {
    K.error(VD->getLocation(), DiagIDs[Diag::LongDouble], nullptr);
    InLongDoubleDecl = true;
  }
  bool Result = Base::TraverseVarDecl(VD);
  if (Report)
    InLongDoubleDecl = false;
  return Result;
}

// A read of a local variable or parameter: its declaration is reported.
static bool isLocalVariableRead(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage();
}

// True for mstage::<Name> and mstage::detail::<Name>.
static bool isMstageName(const NamedDecl *D, StringRef Name) {
  if (!D || !D->getIdentifier() || D->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  if (NS && NS->getIdentifier() && NS->getName() == "detail")
    NS = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "mstage" &&
         NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

static bool isStageCall(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  return Call && isMstageName(Call->getDirectCallee(), "stage");
}

bool FunctionBodyChecker::dataTraverseStmtPre(Stmt *S) {
  // Operands that are never evaluated, and constants folded at compile time.
  if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, ConstantExpr, RequiresExpr,
          ConceptSpecializationExpr>(S))
    return false;
  if (isStageCall(S))
    ++StageDepth;
  if (auto *E = dyn_cast<CXXTypeidExpr>(S)) {
    K.error(E->getBeginLoc(), DiagIDs[Diag::Typeid], nullptr);
    return false;
  }
  auto *E = dyn_cast<Expr>(S);
  if (E && !LongDoubleExpr && !InLongDoubleDecl && !isLocalVariableRead(E) &&
      K.containsLongDouble(E->getType())) {
    K.error(E->getExprLoc(), DiagIDs[Diag::LongDouble], nullptr);
    LongDoubleExpr = E;
  }
  return true;
}

bool FunctionBodyChecker::dataTraverseStmtPost(Stmt *S) {
  if (S == LongDoubleExpr)
    LongDoubleExpr = nullptr;
  if (isStageCall(S))
    --StageDepth;
  return true;
}

static bool isFunctionPointer(QualType T) {
  T = T.getNonReferenceType();
  return T->isFunctionPointerType() || T->isMemberFunctionPointerType() ||
         T->isFunctionType();
}

// A host function's address is meaningless on the GPU; the CPU back end
// would call it and hide the mistake.
void FunctionBodyChecker::checkHostFunctionPointer(const Expr *E, bool Called) {
  if (StageDepth || !isFunctionPointer(E->getType()))
    return;
  std::string Source = K.hostSource(E);
  if (!Source.empty())
    K.error(E->getBeginLoc(), DiagIDs[Diag::HostFunctionPointer], nullptr,
            Called ? 0 : 1, Source);
}

bool FunctionBodyChecker::VisitCallExpr(CallExpr *E) {
  Callees.insert(E->getCallee()->IgnoreParenImpCasts());
  for (const Expr *Arg : E->arguments())
    checkHostFunctionPointer(Arg, /*Called=*/false);
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee) {
    // Through a function pointer: cannot be followed, but it must not come
    // from the host.
    const Expr *Target = E->getCallee()->IgnoreParens();
    if (const auto *PtrMem = dyn_cast<BinaryOperator>(Target);
        PtrMem && PtrMem->isPtrMemOp())
      Target = PtrMem->getRHS();
    checkHostFunctionPointer(Target, /*Called=*/true);
    return true;
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  if (MD && MD->isVirtual()) {
    const Expr *Object = nullptr;
    bool Dispatch = true;
    if (auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      if (auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens())) {
        Dispatch = ME->performsVirtualDispatch(Ctx.getLangOpts());
        Object = ME->getBase();
      }
    } else if (auto *Call = dyn_cast<CXXOperatorCallExpr>(E)) {
      Object = Call->getArg(0);
    }
    if (Dispatch && Object) {
      Callee = MD->getDevirtualizedMethod(Object, /*IsAppleKext=*/false);
      if (!Callee) {
        K.error(E->getExprLoc(), DiagIDs[Diag::VirtualCall], MD,
                static_cast<const NamedDecl *>(MD));
        return true;
      }
    }
  }
  K.addCall(Callee, E->getExprLoc());
  return true;
}

bool FunctionBodyChecker::VisitDeclRefExpr(DeclRefExpr *E) {
  if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl())) {
    // A function whose address is taken may be called through it.
    auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!Callees.contains(E) && !(MD && MD->isVirtual()))
      K.addCall(FD, E->getLocation());
  } else if (auto *VD = dyn_cast<VarDecl>(E->getDecl())) {
    K.checkVariableUse(VD, E->getLocation());
  }
  return true;
}

bool FunctionBodyChecker::VisitCXXConstructExpr(CXXConstructExpr *E) {
  for (const Expr *Arg : E->arguments())
    checkHostFunctionPointer(Arg, /*Called=*/false);
  K.addCall(E->getConstructor(), E->getLocation());
  return true;
}

bool FunctionBodyChecker::VisitCXXInheritedCtorInitExpr(
    CXXInheritedCtorInitExpr *E) {
  K.addCall(E->getConstructor(), E->getLocation());
  return true;
}

bool FunctionBodyChecker::VisitCXXNewExpr(CXXNewExpr *E) {
  if (const FunctionDecl *New = E->getOperatorNew())
    K.addCall(New, E->getBeginLoc());
  return true;
}

bool FunctionBodyChecker::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  if (const FunctionDecl *Delete = E->getOperatorDelete())
    K.addCall(Delete, E->getBeginLoc());
  const CXXRecordDecl *RD = E->getDestroyedType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return true;
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  if (!Dtor)
    return true;
  // Deleting through a pointer to a class with a virtual destructor calls
  // the destructor through the vtable.
  if (Dtor->isVirtual() &&
      !Dtor->getDevirtualizedMethod(E->getArgument(), /*IsAppleKext=*/false)) {
    K.error(E->getBeginLoc(), DiagIDs[Diag::VirtualCall], Dtor,
            static_cast<const NamedDecl *>(Dtor));
    return true;
  }
  K.addCall(Dtor, E->getBeginLoc());
  return true;
}

bool FunctionBodyChecker::VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
  if (const CXXDestructorDecl *Dtor = E->getTemporary()->getDestructor())
    K.addCall(Dtor, E->getExprLoc());
  return true;
}

bool FunctionBodyChecker::VisitVarDecl(VarDecl *VD) {
  if (Ctx.getAsVariableArrayType(VD->getType()))
    K.error(VD->getLocation(), DiagIDs[Diag::DynamicAlloca], VD,
            "a variable-length array");
  // A local object is destroyed when it goes out of scope.
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return true;
  if (const CXXRecordDecl *RD =
          Ctx.getBaseElementType(VD->getType())->getAsCXXRecordDecl())
    if (RD->hasDefinition() && !RD->hasTrivialDestructor())
      if (const CXXDestructorDecl *Dtor = RD->getDestructor())
        K.addCall(Dtor, VD->getLocation());
  return true;
}

// The program's own throws and trys are errors; the library's are not
// visited (TraverseCXXThrowExpr, TraverseCXXTryStmt).
bool FunctionBodyChecker::VisitCXXThrowExpr(CXXThrowExpr *E) {
  K.error(E->getThrowLoc(), DiagIDs[Diag::Throw], nullptr);
  return true;
}

bool FunctionBodyChecker::VisitCXXTryStmt(CXXTryStmt *S) {
  K.error(S->getTryLoc(), DiagIDs[Diag::Try], nullptr);
  return true;
}

bool FunctionBodyChecker::VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) {
  // Casts to a base class are resolved at compile time.
  if (E->getCastKind() == CK_Dynamic)
    K.error(E->getOperatorLoc(), DiagIDs[Diag::DynamicCast], nullptr);
  return true;
}

bool FunctionBodyChecker::VisitAsmStmt(AsmStmt *S) {
  K.error(S->getAsmLoc(), DiagIDs[Diag::InlineAsm], nullptr);
  return true;
}

static bool isWideInteger(const ASTContext &Ctx, QualType T) {
  return T->isIntegerType() && Ctx.getIntWidth(T) > 64;
}

void FunctionBodyChecker::checkWideIntFloatConversion(const Expr *Operand,
                                                      QualType From,
                                                      QualType To,
                                                      SourceLocation Loc) {
  if (StageDepth)
    return;
  if (!(isWideInteger(Ctx, From) && To->isRealFloatingType()) &&
      !(From->isRealFloatingType() && isWideInteger(Ctx, To)))
    return;
  // A constant operand is converted by the compiler.
  if (Operand && Operand->isEvaluatable(Ctx))
    return;
  K.error(Loc, DiagIDs[Diag::WideIntFloatConversion], nullptr, From, To);
}

bool FunctionBodyChecker::VisitCastExpr(CastExpr *E) {
  if (E->getCastKind() != CK_IntegralToFloating &&
      E->getCastKind() != CK_FloatingToIntegral)
    return true;
  const Expr *Operand = E->getSubExpr();
  checkWideIntFloatConversion(Operand, Operand->getType(), E->getType(),
                              isa<ImplicitCastExpr>(E) ? E->getExprLoc()
                                                       : E->getBeginLoc());
  return true;
}

// 'i += d' with an __int128 i converts i to double and back, without a
// cast in the AST.
bool FunctionBodyChecker::VisitCompoundAssignOperator(
    CompoundAssignOperator *E) {
  QualType LHS = E->getLHS()->getType();
  QualType Computation = E->getComputationLHSType();
  checkWideIntFloatConversion(nullptr, LHS, Computation, E->getOperatorLoc());
  checkWideIntFloatConversion(nullptr, Computation, LHS, E->getOperatorLoc());
  return true;
}

//===----------------------------------------------------------------------===//
// KernelChecker
//===----------------------------------------------------------------------===//

bool KernelChecker::run() {
  assert(Checked.empty() && "a checker checks its kernel once");
  checkKernelObject();
  CalledFrom[Entry->getCanonicalDecl()] = {nullptr, SourceLocation()};
  Worklist.push_back(Entry);
  // Silently, the first error answers the question.
  while (!Worklist.empty() && !(Silent && Failed)) {
    const FunctionDecl *FD = Worklist.front();
    Worklist.pop_front();
    Checked.push_back(FD);
    checkFunction(FD);
  }
  return !Failed;
}

void KernelChecker::checkKernelObject() {
  const TemplateArgumentList *Args = Entry->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return;
  const CXXRecordDecl *RD = Args->get(0).getAsType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return;
  KernelClass = RD->getDefinition();
  if (KernelClass->isLambda()) {
    checkLambdaCaptures(KernelClass);
    return;
  }
  // A function object: its reference members lead into host memory, like
  // a lambda's by-reference captures.
  for (const FieldDecl *Field : KernelClass->fields())
    if (Field->getType()->isReferenceType())
      error(Field->getLocation(), DiagIDs[Diag::ReferenceMember], Field,
            static_cast<const NamedDecl *>(Field));
}

void KernelChecker::checkLambdaCaptures(const CXXRecordDecl *Lambda) {
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  Lambda->getCaptureFields(Fields, ThisField);

  for (const LambdaCapture &Capture : Lambda->captures()) {
    // An implicit capture ([&] or [=]) is reported at the lambda, with a note
    // at the use that caused it.
    SourceLocation Loc =
        Capture.isImplicit() ? Lambda->getLocation() : Capture.getLocation();
    std::string Name = "'this'";
    bool Reported = false;
    switch (Capture.getCaptureKind()) {
    case LCK_This:
      Reported = error(Loc, DiagIDs[Diag::CaptureThis], nullptr);
      break;
    case LCK_StarThis: {
      QualType T = ThisField ? ThisField->getType() : QualType();
      if (T.isNull() || T.isTriviallyCopyableType(Ctx))
        continue;
      Name = "'*this'";
      Reported =
          error(Loc, DiagIDs[Diag::CaptureNotCopyable], ThisField, Name, T);
      break;
    }
    case LCK_ByRef: {
      const ValueDecl *Var = Capture.getCapturedVar();
      Name = "'" + Var->getDeclName().getAsString() + "'";
      Reported = error(Loc, DiagIDs[Diag::CaptureByRef], Var,
                       static_cast<const NamedDecl *>(Var),
                       Var->getDeclName().getAsString());
      break;
    }
    case LCK_ByCopy: {
      const ValueDecl *Var = Capture.getCapturedVar();
      Captures.insert(Var);
      const FieldDecl *Field = Fields.lookup(Var);
      QualType T =
          Field ? Field->getType() : Var->getType().getNonReferenceType();
      if (T->isDependentType() || T.isTriviallyCopyableType(Ctx))
        continue;
      Name = "'" + Var->getDeclName().getAsString() + "'";
      Reported = error(Loc, DiagIDs[Diag::CaptureNotCopyable], Var,
                       static_cast<const NamedDecl *>(Var), T);
      break;
    }
    case LCK_VLAType:
      continue;
    }
    if (Reported && Capture.isImplicit())
      Diags.Report(Capture.getLocation(), DiagIDs[Diag::CaptureUse]) << Name;
  }
}

void KernelChecker::checkFunction(const FunctionDecl *FD) {
  if (FD->isDependentContext() || !FD->getBody())
    return;
  assert(!Current && "one function is checked at a time");
  Current = FD;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && KernelClass && MD->getOverloadedOperator() == OO_Call &&
      MD->getParent()->getCanonicalDecl() == KernelClass->getCanonicalDecl())
    KernelParams.insert(MD->param_begin(), MD->param_end());
  for (const ParmVarDecl *Param : FD->parameters())
    if (containsLongDouble(Param->getType()))
      error(Param->getLocation(), DiagIDs[Diag::LongDouble], nullptr);
  if (containsLongDouble(FD->getReturnType()))
    error(FD->getLocation(), DiagIDs[Diag::LongDouble], nullptr);

  FunctionBodyChecker Body(*this);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (CXXCtorInitializer *Init : Ctor->inits())
      Body.TraverseConstructorInitializer(Init);
  Body.TraverseStmt(FD->getBody());
  if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(FD))
    addMemberDestructors(Dtor);
  Current = nullptr;
}

// A destructor destroys the members and bases after its body has run.
void KernelChecker::addMemberDestructors(const CXXDestructorDecl *Dtor) {
  const CXXRecordDecl *RD = Dtor->getParent();
  for (const FieldDecl *Field : RD->fields())
    if (!Field->getType()->isReferenceType())
      addDestructor(Field->getType(), Dtor->getLocation());
  for (const CXXBaseSpecifier &Base : RD->bases())
    addDestructor(Base.getType(), Dtor->getLocation());
}

void KernelChecker::addDestructor(QualType T, SourceLocation Loc) {
  const CXXRecordDecl *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  if (RD && RD->hasDefinition() && !RD->hasTrivialDestructor())
    if (const CXXDestructorDecl *Dtor = RD->getDestructor())
      addCall(Dtor, Loc);
}

// Kernel::operator(), mstage::async and the future it returns, and the
// runtime's launch functions.
static bool isKernelLaunch(const FunctionDecl *FD) {
  if (FD->isExternC() && FD->getIdentifier())
    return FD->getName() == "mstage_rt_prepare" ||
           FD->getName().starts_with("mstage_rt_launch");
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return (MD->getOverloadedOperator() == OO_Call &&
            isMstageName(MD->getParent(), "Kernel")) ||
           isMstageName(MD->getParent(), "kernel_future");
  return isMstageName(FD, "async");
}

static bool isDynamicAlloca(const FunctionDecl *FD) {
  switch (FD->getBuiltinID()) {
  case Builtin::BI__builtin_alloca:
  case Builtin::BIalloca:
  case Builtin::BI_alloca:
  case Builtin::BI__builtin_alloca_uninitialized:
  case Builtin::BI__builtin_alloca_with_align:
  case Builtin::BI__builtin_alloca_with_align_uninitialized:
    return true;
  default:
    return false;
  }
}

void KernelChecker::addCall(const FunctionDecl *Callee, SourceLocation Loc) {
  if (isKernelLaunch(Callee)) {
    error(Loc, DiagIDs[Diag::NestedLaunch], nullptr);
    return;
  }
  if (isDynamicAlloca(Callee)) {
    error(Loc, DiagIDs[Diag::DynamicAlloca], nullptr,
          "'" + Callee->getName().str() + "'");
    return;
  }
  // Deleted functions cannot be called; trivial special members are not
  // calls at all.
  // stage() runs its function on the host, at launch; the extraction pass
  // checks what the staged value depends on.
  if (Callee->isDeleted() || Callee->isTrivial() ||
      isKernelObjectMember(Callee) || isStageEval(Callee))
    return;
  const FunctionDecl *Definition = nullptr;
  if (Callee->hasBody(Definition)) {
    if (CalledFrom
            .try_emplace(Definition->getCanonicalDecl(), CallSite{Current, Loc})
            .second)
      Worklist.push_back(Definition);
    return;
  }
  // Implicitly defaulted members get a body when used; one without a body
  // was not needed. An export is checked when it is parsed, before the
  // templates it uses are instantiated at the end of the file: those are
  // taken on trust (the extraction pass drops an export whose code turns out
  // to be host code).
  if (isAvailableOnDevice(Callee) || Callee->isDefaulted() ||
      mayBeDefinedElsewhere(Callee) ||
      (Silent && Callee->isImplicitlyInstantiable()))
    return;
  bool Reserved = Callee->isExternC() && Callee->getIdentifier() &&
                  Callee->getName().starts_with("__");
  error(Loc, DiagIDs[Reserved ? Diag::NoBodyReserved : Diag::NoBody], Callee,
        static_cast<const NamedDecl *>(Callee));
}

// The kernel entry copies and destroys the kernel lambda; its captures are
// checked by checkLambdaCaptures instead.
bool KernelChecker::isKernelObjectMember(const FunctionDecl *FD) const {
  if (!KernelClass || !KernelClass->isLambda() ||
      !isa<CXXConstructorDecl, CXXDestructorDecl>(FD))
    return false;
  return cast<CXXMethodDecl>(FD)->getParent()->getCanonicalDecl() ==
         KernelClass->getCanonicalDecl();
}

bool KernelChecker::isAvailableOnDevice(const FunctionDecl *FD) const {
  // The global operator new and delete allocate from the device heap
  // (passes/transforms/DeviceHeap.h); not the aligned forms, as the device's
  // malloc aligns to 16 bytes only.
  UnsignedOrNone AlignmentParam = std::nullopt;
  if (FD->isReplaceableGlobalAllocationFunction(&AlignmentParam))
    return !AlignmentParam;
  if (unsigned ID = FD->getBuiltinID()) {
    const Builtin::Context &Builtins = Ctx.BuiltinInfo;
    // Target builtins are for the host's instruction set. The builtin
    // operator new and delete (std::allocator's) are the global ones.
    if (ID == Builtin::BI__builtin_operator_new ||
        ID == Builtin::BI__builtin_operator_delete)
      return true;
    if (Builtins.isTSBuiltin(ID))
      return false;
    // std::move, std::forward and the like are casts.
    if (Builtins.isInStdNamespace(ID))
      return true;
    // __builtin_sqrtf stands for the library function sqrtf; __builtin_isnan
    // has no library function behind it.
    if (Builtins.isLibFunction(ID)) {
      StringRef Name = FD->getName();
      Name.consume_front("__builtin_");
      return !Ctx.Idents.get(Name).getBuiltinID() ||
             isDeviceLibraryFunction(Name);
    }
    // Other compiler builtins (__builtin_expect, __builtin_unreachable, ...)
    // are expanded by the compiler. What is left are library functions
    // (sqrtf, printf), checked by name below.
    if (!Builtins.isPredefinedLibFunction(ID) &&
        !Builtins.isHeaderDependentFunction(ID))
      return true;
  }
  if (!FD->isExternC() || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  return Name.starts_with("__mstage_") || isDeviceLibraryFunction(Name);
}

// A function of the program, declared outside the system headers, may be
// defined in another file compiled by mstage++: the runtime links its
// device export at launch (or reports that no file defines it). A library
// function declared in a system header has no device export.
bool KernelChecker::mayBeDefinedElsewhere(const FunctionDecl *FD) const {
  if (FD->getBuiltinID() || !FD->getDeclName())
    return false;
  // The runtime's own functions are host code.
  if (FD->isExternC() && FD->getIdentifier() &&
      FD->getName().starts_with("mstage_rt_"))
    return false;
  return llvm::none_of(FD->redecls(), [&](const FunctionDecl *D) {
    return isInSystemHeader(D->getLocation());
  });
}

void KernelChecker::checkVariableUse(const VarDecl *VD, SourceLocation Loc) {
  if (VD->getTLSKind() != VarDecl::TLS_None) {
    error(Loc, DiagIDs[Diag::ThreadLocal], VD,
          static_cast<const NamedDecl *>(VD));
    return;
  }
  if (!VD->hasGlobalStorage() || VD->isConstexpr())
    return;
  // std::nothrow only selects operator new's form (DeviceHeap.h).
  if (VD->isInStdNamespace() && VD->getIdentifier() &&
      VD->getName() == "nothrow")
    return;
  // mstage::device_global: a variable of the device (DeviceGlobals.h), here
  // or, declared extern, in another file.
  if (deviceGlobalAnnotation(VD->getType()) &&
      (isExternDeviceGlobal(VD) ||
       (VD->isFileVarDecl() &&
        VD->hasDefinition() != VarDecl::DeclarationOnly)))
    return;
  // A constant with a constant initializer is folded or copied to the
  // device.
  const VarDecl *Definition = nullptr;
  if (VD->getType().isConstant(Ctx))
    if (const Expr *Init = VD->getAnyInitializer(Definition))
      if (Definition->hasConstantInitialization() ||
          Init->isConstantInitializer(Ctx, /*ForRef=*/false))
        return;
  // A static local of kernel code, not one of a host function that a kernel
  // lambda inside it names.
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(
      VD->getParentFunctionOrMethod(/*LexicalParent=*/false));
  if (VD->isStaticLocal() && Owner &&
      CalledFrom.count(Owner->getCanonicalDecl())) {
    // Reported at the declaration, once however often it is used.
    auto [Suggestion, IsArray] = sharedArraySuggestion(VD);
    error(VD->getLocation(), DiagIDs[Diag::StaticLocal], VD,
          static_cast<const NamedDecl *>(VD), IsArray ? 0 : 1, Suggestion,
          VD->getName());
    return;
  }
  error(Loc, DiagIDs[Diag::HostGlobal], VD, static_cast<const NamedDecl *>(VD));
}

// The shared_array declaration that gives VD's type one per block:
// 'mstage::shared_array<float, 16, 16> tile;' for 'static float tile[16][16]',
// and whether VD is an array (a scalar becomes an array of one).
std::pair<std::string, bool>
KernelChecker::sharedArraySuggestion(const VarDecl *VD) const {
  QualType T = VD->getType();
  std::string Extents;
  while (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
    Extents += ", " + std::to_string(CAT->getSize().getZExtValue());
    T = CAT->getElementType();
  }
  bool IsArray = !Extents.empty();
  if (!IsArray)
    Extents = ", 1";
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return {"mstage::shared_array<" + T.getUnqualifiedType().getAsString(Policy) +
              Extents + "> " + VD->getName().str() + ";",
          IsArray};
}

// Whether T is or contains 'long double': through pointers, references and
// arrays, and through the members and bases of a class held by value (a
// pointer to a class is fine until a 'long double' member is read through
// it, which is an expression of that type). Function types do not count: a
// function's parameters and result are checked when it is called.
bool KernelChecker::containsLongDouble(QualType T, bool ByValue) {
  if (T.isNull() || T->isDependentType())
    return false;
  const Type *Ty = T.getCanonicalType().getTypePtr();
  auto Key = llvm::PointerIntPair<const Type *, 1, bool>(Ty, ByValue);
  auto [It, Inserted] = State.LongDoubleTypes.try_emplace(Key, false);
  if (!Inserted)
    return It->second; // known, or being computed (a cycle)

  bool Result = false;
  if (const auto *BT = dyn_cast<BuiltinType>(Ty)) {
    Result = BT->getKind() == BuiltinType::LongDouble;
  } else if (const auto *CT = dyn_cast<ComplexType>(Ty)) {
    Result = containsLongDouble(CT->getElementType(), ByValue);
  } else if (const auto *AT = dyn_cast<ArrayType>(Ty)) {
    Result = containsLongDouble(AT->getElementType(), ByValue);
  } else if (const auto *VT = dyn_cast<VectorType>(Ty)) {
    Result = containsLongDouble(VT->getElementType(), ByValue);
  } else if (const auto *AT = dyn_cast<AtomicType>(Ty)) {
    Result = containsLongDouble(AT->getValueType(), ByValue);
  } else if (!Ty->getPointeeType().isNull()) {
    Result = containsLongDouble(Ty->getPointeeType(), /*ByValue=*/false);
  } else if (const CXXRecordDecl *RD = Ty->getAsCXXRecordDecl();
             RD && ByValue && RD->hasDefinition()) {
    RD = RD->getDefinition();
    Result = llvm::any_of(RD->fields(),
                          [&](const FieldDecl *Field) {
                            return containsLongDouble(Field->getType());
                          }) ||
             llvm::any_of(RD->bases(), [&](const CXXBaseSpecifier &Base) {
               return containsLongDouble(Base.getType());
             });
  }
  State.LongDoubleTypes[Key] = Result;
  return Result;
}

std::string KernelChecker::hostSource(const Expr *E) const {
  std::string Members;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      Members = "." + ME->getMemberDecl()->getNameAsString() + Members;
      E = ME->getBase();
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Subscript) {
      E = Op->getArg(0); // a vector_view of function pointers
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr();
    } else {
      break;
    }
  }
  auto Describe = [&](StringRef What, StringRef Name) {
    if (Members.empty())
      return (What + " '" + Name + "'").str();
    return ("'" + Name + Members + "' (in " + What + " '" + Name + "')").str();
  };
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    std::string Name = D->getNameAsString();
    if (Captures.contains(D))
      return Describe("capture", Name);
    if (KernelParams.contains(D))
      return Describe("kernel argument", Name);
    return "";
  }
  // A member of a function object used as the kernel.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Current);
  if (isa<CXXThisExpr>(E) && !Members.empty() && MD && KernelClass &&
      !KernelClass->isLambda() &&
      MD->getParent()->getCanonicalDecl() == KernelClass->getCanonicalDecl())
    return "member '" + Members.substr(1) + "' of the kernel object";
  return "";
}

// Notes the call sites that lead from the kernel to the function being
// checked, innermost first.
void KernelChecker::noteCallChain() {
  for (const FunctionDecl *FD = Current; FD;) {
    auto It = CalledFrom.find(FD->getCanonicalDecl());
    if (It == CalledFrom.end())
      return;
    const CallSite &Site = It->second;
    if (!Site.Caller || Site.Caller == Entry)
      return;
    Diags.Report(Site.Loc, DiagIDs[Diag::CalledFrom]) << describe(Site.Caller);
    FD = Site.Caller;
  }
}

// The innermost call site outside system headers on the way from the kernel
// to the function being checked.
SourceLocation KernelChecker::findUserCallSite() const {
  for (const FunctionDecl *FD = Current; FD;) {
    auto It = CalledFrom.find(FD->getCanonicalDecl());
    if (It == CalledFrom.end() || !It->second.Caller)
      break;
    if (!isInSystemHeader(It->second.Loc))
      return It->second.Loc;
    FD = It->second.Caller;
  }
  return SourceLocation();
}

std::string KernelChecker::describe(const FunctionDecl *FD) const {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    return KernelClass && MD->getParent()->getCanonicalDecl() ==
                              KernelClass->getCanonicalDecl()
               ? "the kernel lambda"
               : "a lambda";
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return "'" + Name + "'";
}

std::vector<const FunctionDecl *> findKernelEntries(ASTContext &Ctx) {
  std::vector<const FunctionDecl *> Entries;
  auto Lookup = [&](const DeclContext *DC, StringRef Name) {
    return DC->lookup(&Ctx.Idents.get(Name));
  };
  for (NamedDecl *Mstage : Lookup(Ctx.getTranslationUnitDecl(), "mstage"))
    if (auto *MstageNS = dyn_cast<NamespaceDecl>(Mstage))
      for (NamedDecl *Detail : Lookup(MstageNS, "detail"))
        if (auto *DetailNS = dyn_cast<NamespaceDecl>(Detail))
          for (NamedDecl *D : Lookup(DetailNS, "kernel_entry"))
            if (auto *Template = dyn_cast<FunctionTemplateDecl>(D))
              for (FunctionDecl *Spec : Template->specializations())
                if (Spec->hasBody())
                  Entries.push_back(Spec);
  return Entries;
}

bool checkKernel(ASTContext &Ctx, const FunctionDecl *Entry,
                 std::vector<const FunctionDecl *> *Reached) {
  KernelChecker Checker(Ctx, Entry, /*Silent=*/false);
  bool OK = Checker.run();
  if (Reached)
    Checker.getReached(*Reached);
  return OK;
}

// A definition that other files' kernels may call: externally visible, not
// inline (an inline function is defined in each file that uses it), in the
// program's own files, and accepted by the kernel checks. Host code (what
// launches kernels, prints or uses host globals) fails them and stays out,
// which keeps the exports small.
bool isDeviceExportCandidate(ASTContext &Ctx, const FunctionDecl *FD) {
  if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
      FD->isInlined() || FD->isMain() || FD->isDeleted() || FD->isDefaulted() ||
      FD->isConsteval() || isKernelEntry(FD) || isStageEval(FD) ||
      FD->getFormalLinkage() != Linkage::External)
    return false;
  switch (FD->getTemplateSpecializationKind()) {
  case TSK_Undeclared:
  case TSK_ExplicitInstantiationDefinition:
    break;
  default:
    return false;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && (MD->getParent()->isLambda() || MD->getParent()->isLocalClass()))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  KernelChecker Checker(Ctx, FD, /*Silent=*/true);
  return Checker.run();
}

} // namespace mstage
