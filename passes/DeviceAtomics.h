//===- DeviceAtomics.h - Keep the memory order of read-modify-writes ------===//
#ifndef MSTAGE_PASSES_DEVICEATOMICS_H
#define MSTAGE_PASSES_DEVICEATOMICS_H

namespace llvm {
class Module;
}

namespace mstage {

// LLVM 22's NVPTX back end emits every atomicrmw as a relaxed `atom`,
// whatever its ordering (measured: a seq_cst fetch_add became a bare
// atom.global.add). This makes each stronger atomicrmw relaxed between
// fences of its own scope: a seq_cst (or release) fence before it for
// seq_cst (release, acq_rel) orderings, and an acquire fence after it for
// acquire, acq_rel and seq_cst. That is the C++-to-PTX mapping with the
// acquire and release moved into fences. cmpxchg, loads and stores are left
// alone: the back end honours their orderings.
void fenceAtomicReadModifyWrites(llvm::Module &M);

} // namespace mstage

#endif
