//===- Diagnostics.h - What the Clang plugin reports ------------*- C++ -*-===//
//
// The plugin's diagnostics by name (Diagnostics.def holds their levels and
// texts).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_COMPILER_DIAGNOSTICS_H
#define MSTAGE_COMPILER_DIAGNOSTICS_H

namespace clang {
class DiagnosticsEngine;
} // namespace clang

namespace mstage {

enum class Diag : unsigned {
#define MSTAGE_DIAG(NAME, LEVEL, TEXT) NAME,
#define MSTAGE_NOTE(NAME, TEXT) NAME,
#include "Diagnostics.def"
  NumDiags
};

// The ID of Kind in D, registered in D at its first use.
unsigned diagID(clang::DiagnosticsEngine &D, Diag Kind);

} // namespace mstage

#endif
