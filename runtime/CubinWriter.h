//===- CubinWriter.h - ptxas cubins for the disk cache, off the launch ----===//
//
// On a GPU, the launch that compiles a kernel loads its PTX through the
// driver's JIT, which is faster than running ptxas first (H200, Listing 4:
// 23.6 against 25.7 ms to a loaded module; a small kernel: 8.4 against
// 14.3 ms). The cubin that later runs load without any JIT is made on
// worker threads meanwhile, and written to the disk cache with the PTX.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CUBINWRITER_H
#define MSTAGE_RUNTIME_CUBINWRITER_H

#include "CacheKey.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mstage::rt {

// ptxas's cubin of PTX for Arch, or "" when there is no ptxas or it failed.
// After a failure (reported once, naming Kernel) ptxas is not used again.
std::string assembleWithPtxas(llvm::StringRef Kernel, llvm::StringRef PTX,
                              llvm::StringRef Arch);

// Writes Key's disk-cache entry, the PTX and its cubin, on a worker thread.
void storeWithCubinLater(const CacheKey &Key, std::string Kernel,
                         std::string PTX, std::string Arch);

// Waits until every entry handed to storeWithCubinLater is written. The
// process also waits at exit (a forked child does not: it has no workers).
void waitForCubinWriters();

} // namespace mstage::rt

#endif
