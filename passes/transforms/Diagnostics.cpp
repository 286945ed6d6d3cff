//===- Diagnostics.cpp - The passes' errors, with mstage's prefix ---------===//
#include "transforms/Diagnostics.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

void reportError(Module &M, const Twine &Msg) {
  M.getContext().diagnose(
      DiagnosticInfoGeneric(Twine(DiagnosticPrefix) + Msg, DS_Error));
}

void reportErrorIn(const Function &F, const Twine &Msg,
                   const DiagnosticLocation &Loc) {
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Twine(DiagnosticPrefix) + Msg, Loc));
}

} // namespace mstage
