//===- DeviceSharedArrays.h - shared_array declarations as .shared globals ===//
//
// Each mstage::shared_array declaration asks __mstage_shared_array for its
// block's array with its place (file, line, column), site, size and
// alignment. In a device module every distinct (place, site, size, alignment)
// becomes one internal global in address space 3, a `.shared` variable in
// PTX, so a declaration is one array per block however often the code around
// it is inlined or called, as CUDA's __shared__ is. The runtime counts these
// globals as the kernel's static shared memory (runtime/core/LaunchLimits.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICESHAREDARRAYS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICESHAREDARRAYS_H

#include <cstdint>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace mstage {

// The prefix of the globals lowerSharedArrays makes.
inline constexpr const char *SharedArrayPrefix = "__mstage_shared_";

// Gives each call of the shared_array constructor in the host module M its
// own site number (1, 2, ...), before anything is inlined or unrolled: one
// call is one declaration, also where a macro gives two the same place.
void numberSharedArrayDeclarations(llvm::Module &M);

// Replaces every call of __mstage_shared_array with its array's global.
// Calls whose operands are not yet constants (the shared_array constructor
// before inlining) are inlined into their callers first. A call that stays
// unresolved is reported as an error through the module's context.
void lowerSharedArrays(llvm::Module &M);

// Whether GV is the global of a shared_array declaration.
bool isSharedArrayGlobal(const llvm::GlobalVariable &GV);

// Bytes of static shared memory the shared_array globals of M take, each
// placed at its alignment as ptxas places them.
uint64_t staticSharedBytes(const llvm::Module &M);

} // namespace mstage

#endif
