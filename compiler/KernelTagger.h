//===- KernelTagger.h - Name kernel entries for the extraction pass -------===//
#ifndef MSTAGE_COMPILER_KERNELTAGGER_H
#define MSTAGE_COMPILER_KERNELTAGGER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class CXXRecordDecl;
class Decl;
class FunctionDecl;
class QualType;
class SourceLocation;
class VarDecl;
} // namespace clang

namespace mstage {

// True for an instantiation of mstage::detail::kernel_entry.
bool isKernelEntry(const clang::FunctionDecl *FD);

// True for an instantiation of mstage::detail::stage_eval.
bool isStageEval(const clang::FunctionDecl *FD);

// Attaches the staged type's name, kind, size and alignment to a stage_eval
// instantiation for the extraction pass.
void tagStageEval(clang::ASTContext &Ctx, clang::FunctionDecl *Eval);

// The annotation that marks a variable of type T for the extraction pass
// (transforms/DeviceGlobals.h) when T is mstage::device_global<U, Space>
// (constant<U> too), else null.
const char *deviceGlobalAnnotation(clang::QualType T);

// Annotates a namespace-scope device_global variable, before code generation
// emits it; other variables are left alone.
void tagDeviceGlobal(clang::ASTContext &Ctx, clang::VarDecl *VD);

// True for an `extern` namespace-scope declaration of a device_global.
bool isExternDeviceGlobal(const clang::VarDecl *VD);

// A new internal variable that points the extraction pass to VD, an extern
// device_global that the unit uses and does not define (Clang emits no
// annotation of a declaration; transforms/DeviceGlobals.h). Index makes its
// name unique in the unit. The caller hands it to code generation.
clang::VarDecl *markExternDeviceGlobal(clang::ASTContext &Ctx,
                                       clang::VarDecl *VD, unsigned Index);

// The names given so far in one translation unit, and the labels of
// mstage::kernel("label", f, ...) calls, by kernel type.
struct KernelNames {
  struct Label {
    std::string Text;
    const clang::FunctionDecl *Caller; // the function the call is in, or null
    const clang::CallExpr *Call;
  };
  llvm::DenseMap<const clang::CXXRecordDecl *, Label> Labels;
  // The names given, joined with "::".
  llvm::StringSet<> Used;
  // The last component of the name each kernel type got first.
  llvm::DenseMap<const clang::CXXRecordDecl *, std::string> ByType;
};

// Notes the labels of the kernel() calls in D's bodies, before the kernel
// entries they instantiate are tagged; reports a label that is not a string
// literal, and a second label for one kernel.
void findKernelLabels(clang::ASTContext &Ctx, clang::Decl *D,
                      KernelNames &Names);

// Attaches the kernel's device symbol (KernelSymbol.h), readable name and
// source location to the entry as an annotation that the extraction pass
// reads. The symbol is the label's, else Enclosing::kernel_L<line>; Names
// keeps it unique within the translation unit: a second kernel on one line
// gets _C<column>, a lambda instantiated for several argument types _2, _3.
void tagKernelEntry(clang::ASTContext &Ctx, clang::FunctionDecl *Entry,
                    KernelNames &Names);

} // namespace mstage

#endif
