//===- KernelTagger.cpp - Name kernel entries for the extraction pass -----===//
#include "KernelTagger.h"
#include "Diagnostics.h"
#include "formats/KernelSymbol.h"
#include "formats/KernelTags.h"
#include "transforms/DeviceGlobals.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cassert>
#include <memory>
#include <optional>

using namespace clang;

namespace mstage {

// True for mstage::detail::<Name> instantiations.
static bool isDetailTemplate(const FunctionDecl *FD, StringRef Name) {
  if (!FD || !FD->getIdentifier() || FD->getName() != Name ||
      !FD->getPrimaryTemplate())
    return false;
  auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "detail")
    return false;
  auto *Outer = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return Outer && Outer->getIdentifier() && Outer->getName() == "mstage";
}

const char *deviceGlobalAnnotation(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier() || Spec->getName() != "device_global" ||
      Spec->getTemplateArgs().size() != 2)
    return nullptr;
  auto *NS = dyn_cast<NamespaceDecl>(Spec->getDeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "mstage")
    return nullptr;
  const auto *Space = Spec->getTemplateArgs()[1].getAsType()->getAsRecordDecl();
  return Space && Space->getIdentifier() && Space->getName() == "constant"
             ? DeviceConstantAnnotation
             : DeviceGlobalAnnotation;
}

void tagDeviceGlobal(ASTContext &Ctx, VarDecl *VD) {
  if (!VD->isFileVarDecl() || !VD->hasGlobalStorage() ||
      VD->getType()->isDependentType())
    return;
  if (const char *Annotation = deviceGlobalAnnotation(VD->getType()))
    VD->addAttr(AnnotateAttr::CreateImplicit(Ctx, Annotation, nullptr, 0));
}

bool isExternDeviceGlobal(const VarDecl *VD) {
  return VD->hasExternalStorage() &&
         VD->getDeclContext()->getRedeclContext()->isFileContext() &&
         deviceGlobalAnnotation(VD->getType());
}

VarDecl *markExternDeviceGlobal(ASTContext &Ctx, VarDecl *VD, unsigned Index) {
  assert(isExternDeviceGlobal(VD) && !VD->getDefinition() &&
         "a marker only for a declaration the unit does not define");
  // static device_global<T> *const __mstage_extern_global.N = &VD;
  // a name no source can spell, so it meets no user's.
  SourceLocation Loc = VD->getLocation();
  QualType PtrTy = Ctx.getPointerType(VD->getType());
  auto *Ref =
      DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), VD,
                          false, Loc, VD->getType(), VK_LValue);
  auto *Addr =
      UnaryOperator::Create(Ctx, Ref, UO_AddrOf, PtrTy, VK_PRValue, OK_Ordinary,
                            Loc, false, FPOptionsOverride());
  QualType MarkerTy = PtrTy.withConst();
  IdentifierInfo &Id =
      Ctx.Idents.get("__mstage_extern_global." + std::to_string(Index));
  auto *Marker = VarDecl::Create(
      Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc, &Id, MarkerTy,
      Ctx.getTrivialTypeSourceInfo(MarkerTy, Loc), SC_Static);
  Marker->setInit(Addr);
  Marker->setImplicit();
  // Used: emitted although nothing names it; the extraction pass erases it,
  // so debug information has nothing of it.
  Marker->addAttr(UsedAttr::CreateImplicit(Ctx));
  Marker->addAttr(NoDebugAttr::CreateImplicit(Ctx));
  Marker->addAttr(AnnotateAttr::CreateImplicit(
      Ctx,
      deviceGlobalAnnotation(VD->getType()) == DeviceConstantAnnotation
          ? ExternDeviceConstantAnnotation
          : ExternDeviceGlobalAnnotation,
      nullptr, 0));
  Ctx.getTranslationUnitDecl()->addDecl(Marker);
  return Marker;
}

bool isKernelEntry(const FunctionDecl *FD) {
  return isDetailTemplate(FD, "kernel_entry");
}

bool isStageEval(const FunctionDecl *FD) {
  return isDetailTemplate(FD, "stage_eval");
}

void tagStageEval(ASTContext &Ctx, FunctionDecl *Eval) {
  const TemplateArgumentList *Args = Eval->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return;
  QualType T = Args->get(0).getAsType();
  assert(!T->isIncompleteType() && "stage_eval copies a value of its type");
  StageTypeInfo Info;
  Info.TypeName = T.getAsString(Ctx.getPrintingPolicy());
  Info.Size = Ctx.getTypeSizeInChars(T).getQuantity();
  Info.Align = Ctx.getTypeAlignInChars(T).getQuantity();
  QualType Scalar = T;
  if (const auto *ET = T->getAs<EnumType>())
    Scalar = ET->getDecl()->getIntegerType();
  if (Scalar->isBooleanType())
    Info.Kind = StageKind::Bool;
  else if (Scalar->isRealFloatingType())
    Info.Kind = StageKind::Float;
  else if (Scalar->isSignedIntegerType())
    Info.Kind = StageKind::Signed;
  else if (Scalar->isUnsignedIntegerType())
    Info.Kind = StageKind::Unsigned;
  else
    Info.Kind = StageKind::Bytes;
  Eval->addAttr(
      AnnotateAttr::CreateImplicit(Ctx, encodeStageInfo(Info), nullptr, 0));
}

// The function whose body holds the lambda, or null at namespace scope.
static const FunctionDecl *enclosingFunction(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (auto *FD = dyn_cast<FunctionDecl>(DC))
      if (!isa<CXXMethodDecl>(FD) ||
          !cast<CXXMethodDecl>(FD)->getParent()->isLambda())
        return FD;
  return nullptr;
}

// Args as Itanium <template-arg>s ("i" for <int>, "Li3E" for <3>), or
// nothing when one cannot be mangled on its own: a pack, a declaration, a
// template, a type whose mangling refers to a substitution.
static std::optional<std::string>
mangledTemplateArgs(ASTContext &Ctx, ArrayRef<TemplateArgument> Args) {
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  auto Type = [&](QualType T) {
    // _ZTI<type>: the name of T's RTTI object holds T's mangling.
    std::string S;
    llvm::raw_string_ostream OS(S);
    Mangler->mangleCXXRTTI(T, OS);
    return S.substr(4);
  };
  std::string Out;
  for (const TemplateArgument &A : Args) {
    if (A.getKind() == TemplateArgument::Type) {
      Out += Type(A.getAsType());
    } else if (A.getKind() == TemplateArgument::Integral) {
      // L <type> <value> E, a negative value with 'n'.
      llvm::APSInt V = A.getAsIntegral();
      bool Negative = V.isSigned() && V.isNegative();
      Out += "L" + Type(A.getIntegralType()) + (Negative ? "n" : "") +
             toString(Negative ? V.abs() : V, 10, /*Signed=*/false) + "E";
    } else {
      return std::nullopt;
    }
  }
  if (!isSelfContainedMangling(Out))
    return std::nullopt;
  return Out;
}

// The template arguments of D when it is a template's specialization.
static ArrayRef<TemplateArgument> templateArgs(const NamedDecl *D) {
  if (auto *FD = dyn_cast<FunctionDecl>(D))
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
      return Args->asArray();
  if (auto *CD = dyn_cast<ClassTemplateSpecializationDecl>(D))
    return CD->getTemplateArgs().asArray();
  return {};
}

// The symbol components of D's qualified name, outermost first. A
// template's specialization has its arguments (reduce<int>); those that
// cannot be mangled become part of the identifier (reduce<Pair<A, A>>:
// reduce_Pair_A__A), so that two instantiations still differ.
static void appendComponents(ASTContext &Ctx, const Decl *D,
                             SmallVectorImpl<SymbolPart> &Out) {
  if (!D || isa<TranslationUnitDecl>(D))
    return;
  appendComponents(Ctx, Decl::castFromDeclContext(D->getDeclContext()), Out);
  if (auto *NS = dyn_cast<NamespaceDecl>(D)) {
    // The Itanium name of an anonymous namespace: shown as such.
    Out.push_back(NS->isAnonymousNamespace() ? "_GLOBAL__N_1"
                                             : symbolComponent(NS->getName()));
  } else if (auto *RD = dyn_cast<CXXRecordDecl>(D); RD && RD->isLambda()) {
    Out.push_back("lambda");
  } else if (auto *ND = dyn_cast<NamedDecl>(D)) {
    ArrayRef<TemplateArgument> Args = templateArgs(ND);
    if (!Args.empty() && ND->getIdentifier())
      if (std::optional<std::string> Mangled = mangledTemplateArgs(Ctx, Args)) {
        Out.push_back(SymbolPart(symbolComponent(ND->getName()), *Mangled));
        return;
      }
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    ND->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
    Out.push_back(symbolComponent(Name));
  }
}

// A label's components: "saxpy" is in the caller's scope, "mstage::sort::
// radix_pass" is the whole name.
static void appendLabel(ASTContext &Ctx, const KernelNames::Label &L,
                        SmallVectorImpl<SymbolPart> &Out) {
  StringRef Text = L.Text;
  if (!Text.contains("::"))
    appendComponents(Ctx, L.Caller, Out);
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, "::", -1, /*KeepEmpty=*/false);
  if (Parts.empty())
    Parts.push_back(Text);
  for (StringRef P : Parts)
    Out.push_back(symbolComponent(P));
}

// A component not used yet in Scope: Name, else Name_C<column> (another
// kernel on this line), else Name_2, Name_3..., with Args after each.
static SymbolPart uniqueComponent(KernelNames &Names, StringRef Scope,
                                  std::string Name, StringRef Args,
                                  unsigned Column) {
  auto Taken = [&](StringRef Candidate) {
    return Names.Used.contains(
        (Scope + "::" + SymbolPart(Candidate.str(), Args.str()).key()).str());
  };
  if (Taken(Name) && Column && !Taken(Name + "_C" + std::to_string(Column)))
    Name += "_C" + std::to_string(Column);
  for (unsigned N = 2; Taken(Name); ++N)
    if (!Taken(Name + "_" + std::to_string(N))) {
      Name += "_" + std::to_string(N);
      break;
    }
  SymbolPart Part(Name, Args.str());
  Names.Used.insert((Scope + "::" + Part.key()).str());
  return Part;
}

void tagKernelEntry(ASTContext &Ctx, FunctionDecl *Entry, KernelNames &Names) {
  const TemplateArgumentList *Args = Entry->getTemplateSpecializationArgs();
  assert(Args && Args->size() > 0 &&
         Args->get(0).getKind() == TemplateArgument::Type &&
         "a kernel entry is instantiated with its kernel's type");
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return;
  const CXXRecordDecl *RD = Args->get(0).getAsType()->getAsCXXRecordDecl();
  if (!RD)
    return;

  SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(RD->getLocation()));
  KernelSourceInfo Info;
  if (PL.isValid())
    Info.Location = std::string(PL.getFilename()) + ":" +
                    std::to_string(PL.getLine()) + ":" +
                    std::to_string(PL.getColumn());

  SmallVector<SymbolPart, 4> Components;
  unsigned Column = 0;
  if (auto L = Names.Labels.find(RD); L != Names.Labels.end()) {
    appendLabel(Ctx, L->second, Components);
  } else if (RD->isLambda()) {
    if (const FunctionDecl *FD = enclosingFunction(RD))
      appendComponents(Ctx, FD, Components);
    else
      appendComponents(Ctx, Decl::castFromDeclContext(RD->getDeclContext()),
                       Components);
    // At namespace scope, the file says where.
    if (Components.empty() && PL.isValid())
      Components.push_back(
          symbolComponent(llvm::sys::path::filename(PL.getFilename())));
    Components.push_back("kernel_L" +
                         std::to_string(PL.isValid() ? PL.getLine() : 0));
    Column = PL.isValid() ? PL.getColumn() : 0;
  } else {
    appendComponents(Ctx, RD, Components);
  }

  // The kernel's type instantiated for other argument types: _2, _3 on the
  // name its first instantiation got.
  SymbolPart Last = Components.pop_back_val();
  std::string Scope;
  for (const SymbolPart &P : Components)
    Scope += (Scope.empty() ? "" : "::") + P.key();
  if (auto It = Names.ByType.find(RD); It != Names.ByType.end()) {
    Components.push_back(
        uniqueComponent(Names, Scope, It->second, Last.TemplateArgs, 0));
  } else {
    Components.push_back(
        uniqueComponent(Names, Scope, Last.Name, Last.TemplateArgs, Column));
    Names.ByType[RD] = Components.back().Name;
  }
  Info.Name = mangleKernelSymbol(Components);
  Info.PrettyName = demangleKernelSymbol(Info.Name);
  if (!Info.Location.empty())
    Info.PrettyName += "@" + Info.Location;
  Entry->addAttr(
      AnnotateAttr::CreateImplicit(Ctx, encodeKernelInfo(Info), nullptr, 0));
}

namespace {
// The mstage::kernel("label", f, ...) and k.named("label") calls in a body.
class LabelFinder : public RecursiveASTVisitor<LabelFinder> {
public:
  LabelFinder(ASTContext &Ctx, KernelNames &Names) : Ctx(Ctx), Names(Names) {}

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD && FD->isDependentContext())
      return true; // its instantiations come on their own
    const FunctionDecl *Outer = Caller;
    // A lambda's body is in the scope of the function that holds it.
    if (FD)
      Caller = !isLambdaCallOperator(FD) ? FD
               : Caller                  ? Caller
                                         : enclosingFunction(FD);
    bool Go = RecursiveASTVisitor::TraverseDecl(D);
    Caller = Outer;
    return Go;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || CE->getNumArgs() < 1)
      return true;
    // kernel("label", f, ...): the kernel is the function's F; k.named(
    // "label"): the class's (Kernel<F>).
    const TemplateArgumentList *Args = nullptr;
    if (isa<CXXMemberCallExpr>(CE) && isNamedCall(Callee))
      Args = &cast<ClassTemplateSpecializationDecl>(Callee->getParent())
                  ->getTemplateArgs();
    else if (isLabelledKernelCall(Callee) && CE->getNumArgs() >= 2)
      Args = Callee->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0 ||
        Args->get(0).getKind() != TemplateArgument::Type)
      return true;
    if (const CXXRecordDecl *RD =
            Args->get(0).getAsType()->getAsCXXRecordDecl())
      noteLabel(RD, CE);
    return true;
  }

private:
  // CE's first argument labels the kernel RD.
  void noteLabel(const CXXRecordDecl *RD, const CallExpr *CE) {
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    const auto *Literal =
        dyn_cast<StringLiteral>(CE->getArg(0)->IgnoreParenImpCasts());
    if (!Literal || !Literal->isOrdinary()) {
      D.Report(CE->getArg(0)->getExprLoc(), diagID(D, Diag::LabelNotLiteral));
      return;
    }
    auto [It, New] = Names.Labels.try_emplace(
        RD, KernelNames::Label{Literal->getString().str(), Caller, CE});
    if (!New && It->second.Call != CE &&
        It->second.Text != Literal->getString()) {
      D.Report(CE->getArg(0)->getExprLoc(), diagID(D, Diag::LabelTwice))
          << Literal->getString() << It->second.Text;
      D.Report(It->second.Call->getArg(0)->getExprLoc(),
               diagID(D, Diag::LabelBefore));
    }
  }

  // True for a declaration directly in namespace mstage.
  static bool inMstage(const Decl *D) {
    auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
    return NS && NS->getIdentifier() && NS->getName() == "mstage" &&
           isa<TranslationUnitDecl>(NS->getDeclContext());
  }

  // mstage::Kernel<F>::named(const char *label).
  static bool isNamedCall(const FunctionDecl *FD) {
    auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || !MD->getIdentifier() || MD->getName() != "named" ||
        MD->getNumParams() != 1)
      return false;
    auto *Class = dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent());
    return Class && Class->getIdentifier() && Class->getName() == "Kernel" &&
           inMstage(Class);
  }

  // mstage::kernel(const char *label, F f, ...).
  static bool isLabelledKernelCall(const FunctionDecl *FD) {
    if (!FD->getIdentifier() || FD->getName() != "kernel" ||
        FD->getNumParams() < 2 || !FD->getPrimaryTemplate())
      return false;
    if (!inMstage(FD))
      return false;
    QualType P = FD->getParamDecl(0)->getType();
    return P->isPointerType() && P->getPointeeType()->isCharType();
  }

  ASTContext &Ctx;
  KernelNames &Names;
  const FunctionDecl *Caller = nullptr;
};
} // namespace

void findKernelLabels(ASTContext &Ctx, Decl *D, KernelNames &Names) {
  LabelFinder(Ctx, Names).TraverseDecl(D);
}

} // namespace mstage
