//===- PtxResources.h - ptxas's resource report for mstage-ptx ------------===//
//
// mstage-ptx --resources: what ptxas -v says a specialization uses
// (registers, spills, stack, shared memory) and the theoretical occupancy
// that follows for the launch's block size, so that a user sees offline
// when a kernel uses more registers than it should.
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

// The report's lines; occupancy for BlockThreads threads a block with
// DynamicShared bytes of dynamic shared memory, from Arch's limits.
std::string formatPtxResources(const PtxResources &R, llvm::StringRef Arch,
                               uint64_t BlockThreads, uint64_t DynamicShared);

} // namespace mstage

#endif
