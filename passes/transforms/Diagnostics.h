//===- Diagnostics.h - The passes' errors, with mstage's prefix -*- C++ -*-===//
//
// The passes report through the LLVM context's diagnostic handler, which
// clang prints as "error: mstage: ..." (with file:line:col where the IR has
// a location) and opt as "error: mstage: ...". The prefix is added here, and
// only here.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DIAGNOSTICS_H
#define MSTAGE_PASSES_TRANSFORMS_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class DiagnosticLocation;
class Function;
class Module;
class Twine;
} // namespace llvm

namespace mstage {

inline constexpr llvm::StringLiteral DiagnosticPrefix = "mstage: ";

// An error about M as a whole.
void reportError(llvm::Module &M, const llvm::Twine &Msg);

// An error in F, at Loc where it is known.
void reportErrorIn(const llvm::Function &F, const llvm::Twine &Msg,
                   const llvm::DiagnosticLocation &Loc);

} // namespace mstage

#endif
