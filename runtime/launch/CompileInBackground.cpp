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

#include "llvm/Support/raw_ostream.h"
#include "support/Warning.h"

#include <mutex>
#include <string>

namespace mstage::rt {

bool preparesInBackground() {
  return (backend().executes() || jitSettings().Chosen) && !compilePoolClosed();
}

bool compilesInBackground() {
  return jitSettings().Async && preparesInBackground();
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

// The background compile of the specialization whose key is Key: what a
// launch that waits does (makeCode), then the entry is ready. A failure is
// reported once; its launches go on running the generic code.
static void compileInBackground(const RegisteredKernel &K, CacheEntry &E,
                                const std::string &Key, double EvaluateMs,
                                CudaDriver *D) {
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
  if (!Err)
    Err = makeCode({K, backend(), D, Config, Staged}, E.Code, Times);
  if (Err)
    return noteFailed(K, E, std::move(Err));
  E.State.store(EntryState::Ready, std::memory_order_release);
  if (traceEnabled())
    traceLaunch(K.Blob, Config, Staged.Values, Staged.Facts, Times);
  noteCompileDone(K.Blob, Times);
}

void queueSpecialization(const RegisteredKernel &K, CacheEntry &E,
                         double EvaluateMs, CudaDriver *D) {
  EntryState Empty = EntryState::Empty;
  if (!E.State.compare_exchange_strong(Empty, EntryState::Queued,
                                       std::memory_order_acq_rel))
    return;
  queueCompile(K.Module, [&K, &E, Key = E.Key, EvaluateMs, D] {
    compileInBackground(K, E, Key, EvaluateMs, D);
  });
}

} // namespace mstage::rt
