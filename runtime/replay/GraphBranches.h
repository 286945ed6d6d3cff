//===- GraphBranches.h - Which operations of a replayed graph wait --------===//
//
// A replayed graph orders two of its operations only when their footprints
// meet (transforms/AccessFootprint.h): one writes bytes the other reads or
// writes. Heat's interior and boundary kernels of one step write apart, so
// they run on parallel branches, as a hand-written graph would have them;
// everything else keeps the stream's order. MSTAGE_GRAPH_BRANCHES=0 keeps
// every graph a chain. docs/graphs.md, "Parallel branches".
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_REPLAY_GRAPHBRANCHES_H
#define MSTAGE_RUNTIME_REPLAY_GRAPHBRANCHES_H

#include "replay/HeldLaunch.h"
#include "transforms/AccessFootprint.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mstage::rt {

// The bytes L may read and write: a fill's or a copy's; a kernel's from the
// JIT's analysis of its specialization with L's parameters. An error (the
// analysis failed) names the kernel; the caller takes L to touch anything.
llvm::Expected<AccessFootprint> footprintOf(const HeldLaunch &L,
                                            llvm::StringRef Arch);

// For Count operations in a row, the K-th having Footprints[K % size], the
// earlier ones that each must run after: those whose footprints meet its
// own, less those it already runs after through another.
std::vector<llvm::SmallVector<unsigned, 4>>
orderingOf(llvm::ArrayRef<AccessFootprint> Footprints, unsigned Count);

} // namespace mstage::rt

#endif
