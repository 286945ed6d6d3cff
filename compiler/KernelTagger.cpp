//===- KernelTagger.cpp - Name kernel entries for the extraction pass -----===//
#include "KernelTagger.h"
#include "formats/KernelTags.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include <cassert>

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

static std::string identifierFor(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += (isalnum(static_cast<unsigned char>(C)) || C == '_') ? C : '_';
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back(); // reduce<Staged> gives reduce_Staged, not reduce_Staged_
  return Out;
}

void tagKernelEntry(ASTContext &Ctx, FunctionDecl *Entry,
                    llvm::StringMap<unsigned> &UsedNames) {
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
  std::string Enclosing = "global";
  if (const FunctionDecl *FD = enclosingFunction(RD)) {
    // With template arguments: reduce<Staged> and reduce<Unstaged> differ.
    Enclosing.clear();
    llvm::raw_string_ostream OS(Enclosing);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  }
  if (PL.isValid())
    Info.Location = std::string(PL.getFilename()) + ":" +
                    std::to_string(PL.getLine()) + ":" +
                    std::to_string(PL.getColumn());
  if (RD->isLambda()) {
    Info.PrettyName = Enclosing + "::lambda@" + Info.Location;
    Info.Name = "mstage_" + identifierFor(Enclosing) + "_L" +
                std::to_string(PL.isValid() ? PL.getLine() : 0);
  } else {
    Info.PrettyName = RD->getQualifiedNameAsString();
    Info.Name = "mstage_" + identifierFor(Info.PrettyName);
  }
  if (unsigned Seen = UsedNames[Info.Name]++)
    Info.Name += "_" + std::to_string(Seen + 1);
  Entry->addAttr(
      AnnotateAttr::CreateImplicit(Ctx, encodeKernelInfo(Info), nullptr, 0));
}

} // namespace mstage
