//===- CompileAhead.h - A launch's specialization, made before it ---------===//
//
// A compile ahead (mstage_rt_compile) and a question about the code
// (codeForLaunch) start as a launch does: the kernel, the launch's
// effective configuration and, when asked for, the launch's key, with its
// pointers' facts as prepare() previews them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_COMPILEAHEAD_H
#define MSTAGE_RUNTIME_LAUNCH_COMPILEAHEAD_H

#include "cache/MemoryCache.h"
#include "core/StagedLaunch.h"
#include "launch/CodeRequest.h"
#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"
#include "formats/LaunchConfig.h"

#include <optional>

namespace mstage::rt {

struct CompileRequest {
  LaunchRequest L; // no stream: the code is made for the current device
  std::optional<StagedLaunch> Staged;

  CodeRequest code(CudaDriver *D) const {
    return {*L.K, backend(), D, L.Config, *Staged};
  }
};

// Checks R.L's kernel and Config and previews the facts of its pointers;
// with Keyed, evaluates its staged values into R.Staged.
llvm::Error prepareCompile(const LaunchConfig &Config, bool Keyed,
                           CompileRequest &R);

// Finds or makes R's cache entry (E) and its code: queued for the background
// when launches compile there, or for a compile Ahead (prepare()) where
// preparesInBackground(); else now.
llvm::Error compileEntry(const CompileRequest &R, CacheEntry *&E, bool Ahead);

} // namespace mstage::rt

#endif
