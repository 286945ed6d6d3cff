//===- Diagnostics.cpp - What the Clang plugin reports --------------------===//
#include "Diagnostics.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;

namespace mstage {

unsigned diagID(DiagnosticsEngine &D, Diag Kind) {
  switch (Kind) {
#define MSTAGE_DIAG(NAME, LEVEL, TEXT)                                         \
  case Diag::NAME:                                                             \
    return D.getCustomDiagID(DiagnosticsEngine::LEVEL, "mstage: " TEXT);
#define MSTAGE_NOTE(NAME, TEXT)                                                \
  case Diag::NAME:                                                             \
    return D.getCustomDiagID(DiagnosticsEngine::Note, TEXT);
#include "Diagnostics.def"
  case Diag::NumDiags:
    break;
  }
  llvm_unreachable("not a diagnostic of Diagnostics.def");
}

} // namespace mstage
