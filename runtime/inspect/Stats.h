//===- Stats.h - MSTAGE_STATS: a table per kernel at exit -------*- C++ -*-===//
//
// MSTAGE_STATS=1 prints at exit, per kernel in the order of first launch:
// its launches, its specializations (distinct staged values and launch
// facts), where the launches' code came from (memory, disk, generic: the
// generic code ran while the specialization compiled, miss: compiled then,
// or with MSTAGE_CACHE=off), the time spent making code (optimize, codegen,
// ptxas and load, in the background too) and the kernels' run time (on a GPU
// from CUDA events; on the CPU back end as measured; nothing in PTX-only
// mode). On a GPU it also gives the mean run of a generic launch and of a
// specialized one, and their ratio: what running the generic code cost. The
// spans come from the hooks of TraceEvents.h.
//
// A second table gives, per specialization, what its code uses: registers,
// spills, static shared and local memory, and the theoretical occupancy for
// its launch's block: from the loaded function on a GPU (cuFuncGetAttribute,
// cuOccupancyMaxActiveBlocksPerMultiprocessor), else from ptxas -v when the
// JIT ran ptxas (PtxResources.h, which also gives the spills).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_STATS_H
#define MSTAGE_RUNTIME_INSPECT_STATS_H

#include "support/Settings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string_view>

namespace mstage::rt {

// The number that names a specialization, whose memory-cache key is Key, in
// the table and in NVTX ranges.
uint64_t specializationId(std::string_view Key);

// The source of a launch's code as the trace names it (codeSourceName), or
// null for the CPU back end, which makes none. KeyHash: the specialization.
void statsLaunch(llvm::StringRef Kernel, const char *Source, uint64_t KeyHash);
void statsCompileMs(llvm::StringRef Kernel, double Ms);
// A tier-0 compile of Kernel (MSTAGE_JIT_TIERS) that took Ms.
void statsTier0Compile(llvm::StringRef Kernel, double Ms);
// Generic: the run was of the kernel's ahead-of-time generic code (on a GPU,
// where runs are timed by events, the table compares it with the
// specialization's).
void statsKernelMs(llvm::StringRef Kernel, double Ms, bool Generic = false);

// What a specialization's code uses; -1 where its source did not say.
struct CodeResources {
  int64_t Registers = -1, SpillStores = -1, SpillLoads = -1;
  int64_t SharedBytes = -1, LocalBytes = -1;
  int64_t BlocksPerSm = -1, OccupancyPercent = -1;
  uint64_t BlockThreads = 0;
};
// A graph of MSTAGE_GRAPHS=auto was made; one was launched, running
// Launches launches (replay/GraphReplay.h). The table's last line counts them.
void statsGraphMade();
void statsGraphReplay(uint64_t Launches);
// Whether MSTAGE_STATS asks for the table (and so for the resources).
bool statsEnabled();
// Kernel's specialization Id uses R: its known fields replace the row's.
void statsResources(llvm::StringRef Kernel, uint64_t Id,
                    const CodeResources &R);

// The table, on OS; nothing when no kernel was launched.
void printStats(llvm::raw_ostream &OS);

} // namespace mstage::rt

#endif
