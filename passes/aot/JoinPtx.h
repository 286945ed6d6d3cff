//===- JoinPtx.h - One PTX module from several of one target -------------===//
//
// The ahead-of-time compile generates each kernel's PTX in a module of its
// own, on threads at once; the runtime loads one module of all of a unit's
// kernels (one cubin per target, which ptxas makes from one PTX file).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_JOINPTX_H
#define MSTAGE_PASSES_AOT_JOINPTX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mstage {

// One PTX module of Modules, which NVPTX made with one target machine and
// whose definitions have names of their own (declarations, .extern, may
// repeat: PTX allows that): the first one's header (.version, .target,
// .address_size), each one's code in order, and their line tables'
// .file directives numbered anew, as one list, with each .loc following
// its file. Modules with DWARF sections (full debug information) cannot be
// joined: an error, as is a header that differs. One module is itself.
llvm::Expected<std::string> joinPtx(llvm::ArrayRef<llvm::StringRef> Modules);

} // namespace mstage

#endif
