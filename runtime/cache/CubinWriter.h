//===- CubinWriter.h - ptxas cubins for the disk cache, off the launch ----===//
//
// On a GPU, the launch that compiles a kernel loads its PTX through the
// driver's JIT, which is faster than running ptxas first (H200, Listing 4:
// 23.6 against 25.7 ms to a loaded module; a small kernel: 8.4 against
// 14.3 ms). The launch starts ptxas as a process and goes on; the entry is
// written with the PTX at once, and again with the cubin once ptxas is done:
// at a later launch that compiles, at mstage_rt_flush_cache(), or at exit.
// A background compile, and one that finds the driver's JIT busy with
// another, uses ptxas's cubin instead (launch/AssembleCode.h,
// DriverJitClaim).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CACHE_CUBINWRITER_H
#define MSTAGE_RUNTIME_CACHE_CUBINWRITER_H

#include "cache/CacheKey.h"
#include "cuda/CudaTools.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mstage::rt {

// Whether there is a ptxas, and it has not failed as a tool.
bool ptxasUsable();

// ptxas's cubin of PTX for Arch, or "" when there is no ptxas or it failed
// as a tool (it cannot be run, or it crashed): after such a failure
// (reported once, naming Kernel) ptxas is not used again. ptxas rejecting
// the PTX is the kernel's error, returned as PtxRejected (CudaTools.h).
// With Report, ptxas's resource report too; with Keep, OnWait and OptLevel,
// as assembleCubin says.
llvm::Expected<std::string> assembleWithPtxas(
    llvm::StringRef Kernel, llvm::StringRef PTX, llvm::StringRef Arch,
    std::string *Report = nullptr, std::optional<PtxasKeep> Keep = std::nullopt,
    llvm::function_ref<void(bool)> OnWait = {}, int OptLevel = -1);

// Writes Key's disk-cache entry with the PTX now, and starts ptxas for the
// entry with the cubin; entries whose ptxas has finished are written. When
// ptxas rejects PTX that the driver accepted, that is reported naming
// Kernel, and the entry is removed.
void storeWithCubinLater(const CacheKey &Key, std::string Kernel,
                         std::string PTX, std::string Arch);

// Makes the list of ptxas runs now, so that it outlives (is destroyed after)
// whatever is registered with atexit later: the compile pool.
void initCubinWriters();

// Waits for every ptxas started by storeWithCubinLater and writes its entry.
// The process also does at exit (a forked child does not: the processes
// are its parent's).
void waitForCubinWriters();

} // namespace mstage::rt

#endif
