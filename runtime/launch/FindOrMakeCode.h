//===- FindOrMakeCode.h - The code a launch runs --------------------------===//
//
// A launch finds its specialization in its kernel's memory cache (the hit
// path: a shared lock, no allocation, no IR). On a miss it makes the code
// now (makeCode), or, with MSTAGE_JIT=async and when MSTAGE_JIT=auto's
// policy says so (JitPolicy.h), queues the compile and runs the kernel's
// generic code meanwhile.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_FINDORMAKECODE_H
#define MSTAGE_RUNTIME_LAUNCH_FINDORMAKECODE_H

#include "cache/MemoryCache.h"
#include "core/GenericCode.h"
#include "core/StagedLaunch.h"
#include "inspect/Trace.h"
#include "launch/CodeRequest.h"
#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace mstage::rt {

struct LaunchCode {
  const CompiledKernel *Compiled = nullptr; // the specialization's code
  const GenericKernel *Generic = nullptr;   // set: this runs instead
  // The specialization's entry: the same for its tier-0 and tier-1 code.
  const CacheEntry *Entry = nullptr;
  // MSTAGE_CACHE=off: the launch's only entry, unloaded after its kernel.
  std::optional<CacheEntry> Uncached;
};

// Finds or makes the code of L's specialization Staged into Code; Times
// says where it came from (and MSTAGE_TRACE prints it).
llvm::Error findOrMakeCode(const LaunchRequest &L, const StagedLaunch &Staged,
                           LaunchTimes &Times, LaunchCode &Code);

// Makes E's code now, unless another thread made it meanwhile: the sync
// path. A background compile that failed is this launch's failure.
// Capturing: the launch's stream is captured (loading is allowed).
llvm::Error compileNow(const CodeRequest &R, CacheEntry &E, LaunchTimes &Times,
                       bool Capturing);

} // namespace mstage::rt

#endif
