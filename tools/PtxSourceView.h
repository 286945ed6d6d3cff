//===- PtxSourceView.h - C++ source lines beside PTX and SASS -------------===//
//
// mstage-ptx --source: the kernel's C++ lines interleaved with its code, by
// the .loc directives of the PTX (and the line table of the cubin for SASS),
// as Compiler Explorer shows them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_TOOLS_PTXSOURCEVIEW_H
#define MSTAGE_TOOLS_PTXSOURCEVIEW_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mstage {

// PTX with each source line that its .loc directives name printed before
// the instructions it became, as a `//##` comment (the directives go).
// Errors when the PTX has no line information.
llvm::Error printPtxWithSource(llvm::StringRef PTX, llvm::raw_ostream &OS);

// The SASS that ptxas makes of PTX for Arch, through nvdisasm, with the
// source lines likewise; says so, and prints nothing else, when ptxas or
// nvdisasm is absent.
llvm::Error printSassWithSource(llvm::StringRef PTX, llvm::StringRef Arch,
                                llvm::raw_ostream &OS);

} // namespace mstage

#endif
