//===- PtxResources.h - ptxas's resource report ---------------------------===//
//
// What ptxas -v says a specialization uses (registers, spills, stack, shared
// memory) and the theoretical occupancy that follows for the launch's block
// size, so that a user sees when a kernel uses more registers than it
// should: offline (mstage-ptx --resources) and in MSTAGE_STATS, when the
// JIT runs ptxas (runtime/inspect/Stats.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_PTXRESOURCES_H
#define MSTAGE_PASSES_AOT_PTXRESOURCES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mstage {

struct PtxResources {
  unsigned Registers = 0, Barriers = 0;
  uint64_t StackBytes = 0, SpillStoreBytes = 0, SpillLoadBytes = 0;
  uint64_t SharedBytes = 0; // static shared memory (smem)
};

// Parses ptxas -v's messages for the entry function Kernel.
llvm::Expected<PtxResources> parsePtxasVerbose(llvm::StringRef Log,
                                               llvm::StringRef Kernel);

// Runs ptxas -v on PTX for Arch and parses its report.
llvm::Expected<PtxResources> measurePtxResources(llvm::StringRef PTX,
                                                 llvm::StringRef Arch,
                                                 llvm::StringRef Kernel);

// The blocks of BlockThreads threads with DynamicShared bytes of dynamic
// shared memory that one multiprocessor of Arch runs at once, from Arch's
// limits; Percent: their warps against the multiprocessor's; Limit: what
// bounds them ("registers", "shared memory", "warps per SM", "blocks per SM").
struct PtxOccupancy {
  uint64_t Blocks = 0;
  unsigned Percent = 0;
  const char *Limit = "";
};
PtxOccupancy ptxOccupancy(const PtxResources &R, llvm::StringRef Arch,
                          uint64_t BlockThreads, uint64_t DynamicShared);

// The report's lines; occupancy for BlockThreads threads a block with
// DynamicShared bytes of dynamic shared memory, from Arch's limits.
std::string formatPtxResources(const PtxResources &R, llvm::StringRef Arch,
                               uint64_t BlockThreads, uint64_t DynamicShared);

} // namespace mstage

#endif
