//===- KernelTagger.h - Name kernel entries for the extraction pass -------===//
#ifndef MSTAGE_COMPILER_KERNELTAGGER_H
#define MSTAGE_COMPILER_KERNELTAGGER_H

#include "llvm/ADT/StringMap.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace mstage {

// True for an instantiation of mstage::detail::kernel_entry.
bool isKernelEntry(const clang::FunctionDecl *FD);

// True for an instantiation of mstage::detail::stage_eval.
bool isStageEval(const clang::FunctionDecl *FD);

// Attaches the staged type's name, kind, size and alignment to a stage_eval
// instantiation for the extraction pass.
void tagStageEval(clang::ASTContext &Ctx, clang::FunctionDecl *Eval);

// Attaches the kernel's device name, readable name and source location to
// the entry as an annotation that the extraction pass reads.
// UsedNames keeps device names unique within the translation unit: a
// lambda instantiated for several argument types gets _2, _3, ...
void tagKernelEntry(clang::ASTContext &Ctx, clang::FunctionDecl *Entry,
                    llvm::StringMap<unsigned> &UsedNames);

} // namespace mstage

#endif
