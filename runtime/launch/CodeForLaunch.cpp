//===- CodeForLaunch.cpp - The code a launch would run --------------------===//
#include "launch/CodeForLaunch.h"
#include "core/Stream.h"
#include "jit/CompilePool.h"
#include "launch/CompileAhead.h"
#include "launch/CompileInBackground.h"
#include "launch/LoadCode.h"
#include "launch/MakeCode.h"
#include "support/Settings.h"

namespace mstage::rt {

// MSTAGE_CACHE=off: R's code is made for this question alone.
static llvm::Error uncachedCode(const CompileRequest &R, CUfunction &Function,
                                CUmodule &Owned) {
  CompiledKernel Code;
  LaunchTimes Times;
  if (llvm::Error Err = makeCode(R.code(currentDriver()), Code, Times))
    return Err;
  Function = Code.Function;
  Owned = Code.Module;
  return llvm::Error::success();
}

llvm::Error codeForLaunch(const void *HostEntry, void *const *Params,
                          const uint32_t *ParamSizes, uint32_t NumParams,
                          const LaunchConfig &Config,
                          CUfunction &Function, CUmodule &Owned) {
  Owned = nullptr;
  CompileRequest R;
  R.L = {HostEntry, nullptr, Params, ParamSizes, NumParams};
  if (llvm::Error Err = prepareCompile(Config, /*Keyed=*/true, R))
    return Err;
  const CacheSettings &Cache = cacheSettings();
  if (Cache.Mode == CacheMode::Off)
    return uncachedCode(R, Function, Owned);
  if (!Cache.Error.empty())
    return withKernel(failure(Cache.Error), *R.L.K);
  CacheEntry *E;
  if (llvm::Error Err = compileEntry(R, E, /*Ahead=*/false))
    return Err;
  if (compilesInBackground())
    waitForCompiles();
  if (!E->ready())
    return E->Failure ? llvm::make_error<RuntimeFailure>(*E->Failure)
                      : withKernel(failure("its code is not ready after its "
                                           "compile; please report this"),
                                   *R.L.K);
  llvm::Expected<CUfunction> F =
      functionOn(*R.L.K, backend(), E->Code, *currentDriver(), false);
  if (!F)
    return F.takeError();
  Function = *F;
  return llvm::Error::success();
}

} // namespace mstage::rt
