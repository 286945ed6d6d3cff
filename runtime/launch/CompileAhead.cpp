//===- CompileAhead.cpp - A launch's specialization, made before it -------===//
#include "launch/CompileAhead.h"
#include "core/KernelRegistry.h"
#include "core/LaunchFactsOf.h"
#include "core/Stream.h"
#include "inspect/TraceEvents.h"
#include "launch/CheckLaunch.h"
#include "launch/CompileInBackground.h"
#include "launch/FindOrMakeCode.h"

#include <cassert>

namespace mstage::rt {

llvm::Error prepareCompile(const LaunchConfig &Config, bool Keyed,
                           CompileRequest &R) {
  LaunchRequest &L = R.L;
  if (llvm::Error E =
          checkLaunch(L.HostEntry, L.NumParams, Config, L.K, L.Config))
    return E;
  if (llvm::Error E = launchFactsOf(*L.K, backend(), L.Params, L.ParamSizes,
                                    L.NumParams, /*Preview=*/true, L.Facts))
    return withKernel(std::move(E), *L.K);
  if (!Keyed)
    return llvm::Error::success();
  R.Staged.emplace(*L.K, L.Params, L.Config, L.Facts);
  if (R.Staged->GaveUp >= 0)
    return evaluatorGaveUp(*L.K, uint32_t(R.Staged->GaveUp));
  return llvm::Error::success();
}

llvm::Error compileEntry(const CompileRequest &R, CacheEntry *&E, bool Ahead) {
  assert(R.Staged && "a compile ahead is keyed (prepareCompile)");
  const RegisteredKernel &K = *R.L.K;
  E = &K.Specializations->findOrInsert(R.Staged->key());
  if (E->ready())
    return llvm::Error::success();
  if (Ahead ? preparesInBackground() : compilesInBackground()) {
    queueSpecialization(K, *E, 0, currentDriver());
    return llvm::Error::success();
  }
  LaunchTimes Times;
  KernelScope Scope(K.Blob, R.Staged->Values);
  if (llvm::Error Err = compileNow(R.code(currentDriver()), *E, Times, false))
    return Err;
  if (traceEnabled())
    traceLaunch(K.Blob, R.L.Config, R.Staged->Values, R.Staged->Facts, Times);
  noteCompileDone(K.Blob, Times);
  return llvm::Error::success();
}

} // namespace mstage::rt
