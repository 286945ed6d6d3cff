//===- DeviceAtomics.h - Scope and memory order of device atomics ---------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEATOMICS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEATOMICS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
}

namespace mstage {

// The __builtin_annotation string that include/mstage/atomic.hpp puts on the
// pointer of a block-scope atomic operation.
inline constexpr llvm::StringLiteral BlockScopeMark =
    "mstage.atomic.scope.block";

// Gives every atomic instruction and fence of the device module its scope.
// The host front end emits them all with the default, system scope; on the
// GPU the default is device scope (syncscope "device", PTX .gpu), and an
// operation whose pointer carries BlockScopeMark gets block scope
// (syncscope "block", PTX .cta). The marks are then removed, so that the
// optimizer sees the pointers again (for shared memory, atom.shared).
void scopeDeviceAtomics(llvm::Module &M);

// LLVM 22's NVPTX back end emits every atomicrmw as a relaxed `atom`,
// whatever its ordering (measured: a seq_cst fetch_add became a bare
// atom.global.add), and with its default scope, .gpu. This makes each
// stronger atomicrmw relaxed between fences of its own scope: a seq_cst (or
// release) fence before it for seq_cst (release, acq_rel) orderings, and an
// acquire fence after it for acquire, acq_rel and seq_cst. That is the
// C++-to-PTX mapping with the acquire and release moved into fences. cmpxchg,
// loads and stores are left alone: the back end honours their orderings and
// scopes.
void fenceAtomicReadModifyWrites(llvm::Module &M);

} // namespace mstage

#endif
