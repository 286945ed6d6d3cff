//===- CompileInBackground.cpp - Specializations made by the compile pool -===//
#include "launch/CompileInBackground.h"
#include "core/Backend.h"
#include "core/StagedLaunch.h"
#include "inspect/Trace.h"
#include "inspect/TraceEvents.h"
#include "jit/CompilePool.h"
#include "launch/LoadCode.h"
#include "launch/MakeCode.h"
#include "support/Settings.h"

#include "support/Warning.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>

namespace mstage::rt {

bool preparesInBackground() {
  return (backend().executes() || jitSettings().Chosen) && !compilePoolClosed();
}

bool compilesInBackground() {
  return jitSettings().Async && preparesInBackground();
}

bool tiersWanted() {
  return jitSettings().Tiers.value_or(backend().loadsCode());
}

// E failed to compile: the failure is reported once (the entry is compiled
// once), and each launch that finds E fails with it.
static void noteFailed(const RegisteredKernel &K, CacheEntry &E,
                       llvm::Error Err) {
  RuntimeFailure Failure = takeFailure(withKernel(std::move(Err), K));
  // Not this compile's failure: the next synchronizing call reports the
  // fault that broke the context.
  if (!loadFoundContextLost()) {
    RuntimeFailure Warning = Failure;
    // With MSTAGE_JIT=sync a prepared compile's launches fail with it.
    if (compilesInBackground())
      Warning.Message += "; its generic code keeps running";
    warn(Warning);
  }
  E.Failure = std::move(Failure);
  E.State.store(EntryState::Failed, std::memory_order_release);
}

// Tier 0 of R's specialization into E.Quick, for E's launches to run until
// tier 1 is ready. A failure is returned, to be said only when tier 1
// compiles (else tier 1's failure says it).
static llvm::Error makeTier0(const CodeRequest &R, CacheEntry &E,
                             double EvaluateMs) {
  LaunchTimes Times;
  Times.Evaluate = EvaluateMs;
  Times.Background = true;
  llvm::Expected<bool> Made = makeQuickCode(R, E.Quick, Times);
  if (!Made || !*Made)
    return Made.takeError();
  E.QuickReady.store(true, std::memory_order_release);
  if (traceEnabled())
    traceLaunch(R.K.Blob, R.Config, R.Staged.Values, R.Staged.Facts, Times);
  noteCompileDone(R.K.Blob, Times);
  return llvm::Error::success();
}

// The background compile of the specialization whose key is Key: what a
// launch that waits does (makeCode), then the entry is ready. A failure is
// reported once; its launches go on running the generic code. Tiered: tier
// 0 first, when the disk cache has nothing.
static void compileInBackground(const RegisteredKernel &K, CacheEntry &E,
                                const std::string &Key, double EvaluateMs,
                                CudaDriver *D, bool Tiered) {
  std::lock_guard<std::mutex> G(E.Compiling);
  if (E.ready())
    return; // a launch that could not wait made it
  StagedLaunch Staged(K, Key);
  KernelScope Scope(K.Blob, Staged.Values);
  LaunchConfig Config = Staged.config();
  LaunchTimes Times;
  Times.Evaluate = EvaluateMs;
  Times.Background = true;
  llvm::Error Err = D ? withKernel(D->bindThread(), K) : llvm::Error::success();
  CodeRequest R{K, backend(), D, Config, Staged};
  llvm::Error Tier0Err = llvm::Error::success();
  // Not once the pool is closed at exit: no launch would run it. Nor for a
  // large kernel, decided before LLVM runs.
  auto Tier0 = [&] {
    if (!compilePoolClosed() && quickCodeWanted(K))
      Tier0Err = makeTier0(R, E, EvaluateMs);
  };
  if (!Err)
    Err = makeCode(R, E.Code, Times,
                   Tiered ? llvm::function_ref<void()>(Tier0) : nullptr);
  if (Err) {
    llvm::consumeError(std::move(Tier0Err)); // tier 1's failure says it
    return noteFailed(K, E, std::move(Err));
  }
  if (Tier0Err)
    warn(withKernel(std::move(Tier0Err), K),
         "; its tier-0 code was not made (tier 1 runs)");
  E.State.store(EntryState::Ready, std::memory_order_release);
  if (traceEnabled())
    traceLaunch(K.Blob, Config, Staged.Values, Staged.Facts, Times);
  noteCompileDone(K.Blob, Times);
}

bool queueSpecialization(const RegisteredKernel &K, CacheEntry &E,
                         double EvaluateMs, CudaDriver *D, bool Tiered) {
  EntryState Empty = EntryState::Empty;
  if (!E.State.compare_exchange_strong(Empty, EntryState::Queued,
                                       std::memory_order_acq_rel))
    return false;
  // A -g -O0 unit's code is unoptimized already: tier 0 would be the same.
  Tiered = Tiered && tiersWanted() && !K.Blob.DebugAtO0;
  queueCompile(K.Module, [&K, &E, Key = E.Key, EvaluateMs, D, Tiered] {
    compileInBackground(K, E, Key, EvaluateMs, D, Tiered);
  });
  return true;
}

} // namespace mstage::rt
