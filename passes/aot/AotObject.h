//===- AotObject.h - Ahead-of-time images' table and object ---------------===//
//
// The module record (mstage_module_record) points at a table of the unit's
// ahead-of-time images. The table is either in the host module (the compile
// waits for the images before the host code generation) or in an object of
// its own that mstage++ joins to the host object with `ld -r`: the host
// module then names the table by an external symbol and has a fixed number
// of slots, so that the host code generation need not wait for the images
// (docs/compiling.md). Slots that no image fills are {null, 0}: the runtime
// skips them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_AOTOBJECT_H
#define MSTAGE_PASSES_AOT_AOTOBJECT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class DataLayout;
class GlobalVariable;
class Module;
class Triple;
} // namespace llvm

namespace mstage {

// Adds Images to M, each in the images' section (AotImage.h), and a table of
// Slots references to them, the rest {null, 0}, named Name with Linkage.
llvm::GlobalVariable *addAotImageTable(llvm::Module &M,
                                       llvm::ArrayRef<std::string> Images,
                                       unsigned Slots, llvm::StringRef Name,
                                       llvm::GlobalValue::LinkageTypes Linkage);

// Declares the table of Slots references that another object defines (a
// hidden symbol, so that a shared library's own table is the one it uses).
llvm::GlobalVariable *declareAotImageTable(llvm::Module &M, unsigned Slots,
                                           llvm::StringRef Name);

// Whether an object for TT can be joined to the host object by the host's
// linker (`ld -r`): TT is the host's own target (architecture, operating
// system, environment, ELF). A cross compile (--target=, -m32, -mx32) embeds
// its images in the host module instead, which any target's object holds.
bool isJoinableTarget(const llvm::Triple &TT);

// Writes an object for the host (TT, DL) that defines the table Name of
// Slots references to Images: weak, since two units with the same kernels,
// targets and ptxas options have the same images and the same name.
llvm::Error writeAotObject(llvm::StringRef Path, const llvm::Triple &TT,
                           const llvm::DataLayout &DL,
                           llvm::ArrayRef<std::string> Images, unsigned Slots,
                           llvm::StringRef Name);

} // namespace mstage

#endif
