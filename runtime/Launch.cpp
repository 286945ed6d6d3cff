//===- Launch.cpp - The C ABI of launches: the launch pipeline's steps ----===//
//
// Each entry point reads top to bottom as the steps of runtime/launch/, in
// the order data flows: resolve the arguments, evaluate the staged values
// (whose bytes are the key), find or make the code, launch it on the back
// end.
//
//===----------------------------------------------------------------------===//
#include "cache/CubinWriter.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/StagedLaunch.h"
#include "core/Stream.h"
#include "core/StreamCheck.h"
#include "inspect/Nvtx.h"
#include "inspect/Trace.h"
#include "inspect/TraceEvents.h"
#include "jit/CompilePool.h"
#include "launch/CheckLaunch.h"
#include "launch/CompileAhead.h"
#include "launch/EvaluateStaged.h"
#include "launch/FindOrMakeCode.h"
#include "launch/LaunchCompiled.h"
#include "launch/LaunchOnCpu.h"
#include "launch/LaunchRequest.h"
#include "launch/ParamSpace.h"
#include "launch/ResolveArguments.h"
#include "support/Settings.h"
#include "transforms/CaptureInMemory.h"

#include "mstage/abi.h"
#include "support/Export.h"

#include <optional>

using namespace mstage::rt;

// Per-thread kernel timing for benchmarks (mstage_rt_time_launches).
static thread_local bool TimeLaunches = false;
static thread_local double LastKernelMs = 0;
static thread_local LaunchTimes LastTimes;

extern "C" MSTAGE_EXPORT void mstage_rt_time_launches(int Enable) {
  TimeLaunches = Enable != 0;
}

extern "C" MSTAGE_EXPORT double mstage_rt_last_kernel_ms(void) {
  return LastKernelMs;
}

extern "C" MSTAGE_EXPORT int mstage_rt_last_launch_source(double *TimesMs) {
  const LaunchTimes &T = LastTimes;
  if (TimesMs) {
    TimesMs[0] = T.Evaluate;
    TimesMs[1] = T.Optimize;
    TimesMs[2] = T.Codegen;
    TimesMs[3] = T.Load;
  }
  return int(T.Source);
}

extern "C" MSTAGE_EXPORT int mstage_rt_last_launch_from_cubin(void) {
  return LastTimes.FromCubin ? 1 : 0;
}

extern "C" MSTAGE_EXPORT void mstage_rt_flush_cache(void) {
  waitForCubinWriters();
}

extern "C" MSTAGE_EXPORT int mstage_rt_prepare(const void *HostEntry) {
  return toStatus(findRunnable(HostEntry).takeError());
}

extern "C" MSTAGE_EXPORT int
mstage_rt_compile(const void *HostEntry, void *const *Params,
                  const uint32_t *ParamSizes, uint32_t NumParams,
                  const mstage_launch_config *Config) {
  const CacheSettings &Cache = cacheSettings();
  // The CPU back end compiles nothing; with MSTAGE_CACHE=off no code is
  // kept for a later launch.
  bool Keeps = !backend().runsHostBodies() && Cache.Mode != CacheMode::Off;
  CompileRequest R;
  R.L = {HostEntry, nullptr, Params, ParamSizes, NumParams};
  if (llvm::Error Err =
          prepareCompile(*Config, Keeps && Cache.Error.empty(), R))
    return failWith(std::move(Err));
  if (!Keeps)
    return 0;
  if (!Cache.Error.empty())
    return failWith(withKernel(failure(Cache.Error), *R.L.K));
  CacheEntry *E;
  return toStatus(compileEntry(R, E, /*Ahead=*/true));
}

extern "C" MSTAGE_EXPORT int mstage_rt_jit_wait(void) {
  NvtxRange Wait("wait jit_wait");
  waitForCompiles();
  return 0;
}

extern "C" MSTAGE_EXPORT int
mstage_rt_launch_stream_check(const void *HostEntry, mstage_stream *S,
                              uint64_t StreamId) {
  llvm::Error Why = checkStreamAlive(S, "is launched",
                                     RuntimeFailure::Join::Clause, StreamId);
  if (!Why)
    return 0;
  return failWith(withKernel(std::move(Why), mstage_rt_kernel_name(HostEntry)));
}

// Whether this launch's times are measured: they are printed, dumped or
// asked for.
static bool measuresTimes() {
  // The settings are read once per process.
  static const bool Printed = [] {
    const DumpSettings &Dumps = dumpSettings();
    return traceEnabled() || Dumps.IR || Dumps.PTX || Dumps.SASS;
  }();
  return Printed || TimeLaunches;
}

extern "C" MSTAGE_EXPORT int
mstage_rt_launch(const void *HostEntry, mstage_invoke_fn Invoke,
                 void *const *Params, const uint32_t *ParamSizes,
                 uint32_t NumParams, const mstage_launch_config *Config,
                 mstage_stream *StreamPtr) {
  if (streamcheck::on())
    streamcheck::launched(streamOf(StreamPtr), HostEntry, Params, ParamSizes,
                          NumParams);
  LaunchRequest L{HostEntry, Invoke, Params, ParamSizes, NumParams};
  if (llvm::Error Err =
          checkLaunch(HostEntry, NumParams, *Config, L.K, L.Config))
    return failWith(std::move(Err));
  LaunchScope Scope(L.K->Blob);
  if (llvm::Error Err = resolveArguments(StreamPtr, L))
    return failWith(std::move(Err));
  if (backend().runsHostBodies()) {
    LastTimes = LaunchTimes(); // nothing is compiled: source "memory"
    return launchOnCpu(L, TimeLaunches ? &LastKernelMs : nullptr);
  }
  const CacheSettings &Cache = cacheSettings();
  if (!Cache.Error.empty())
    return failWith(withKernel(failure(Cache.Error), *L.K));

  LaunchTimes &Times = LastTimes;
  Times = LaunchTimes();
  std::optional<StagedLaunch> Staged;
  if (llvm::Error Err = evaluateStaged(L, measuresTimes(), Staged, Times))
    return failWith(std::move(Err));
  if (llvm::Error Err = placeParams(L, *Staged, Times))
    return failWith(std::move(Err));
  LaunchCode Code;
  if (llvm::Error Err = findOrMakeCode(L, *Staged, Times, Code))
    return failWith(std::move(Err));
  return launchCompiled(L, *Staged, Code, TimeLaunches, LastKernelMs);
}
