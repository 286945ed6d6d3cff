//===- LaunchOnGpu.cpp - A launch through the CUDA driver -----------------===//
#include "launch/LaunchOnGpu.h"
#include "core/Backend.h"
#include "core/ParamsInMemory.h"
#include "core/Stream.h"
#include "inspect/TraceEvents.h"
#include "launch/BuildKey.h"
#include "launch/JitPolicy.h"
#include "launch/LoadCode.h"
#include "launch/OccupancyTuning.h"
#include "replay/GraphReplay.h"
#include "support/Settings.h"
#include "transforms/CaptureInMemory.h"

#include "llvm/ADT/SmallVector.h"

#include <bitset>
#include <cassert>
#include <optional>
#include <string>

namespace mstage::rt {

// Whether each pointer slot of a launch points into an allocation of its
// own, so that the generic code's disjoint entry may run it.
static bool eachSlotApart(llvm::ArrayRef<SlotFact> Facts) {
  std::bitset<SlotFact::NoGroup> Seen;
  for (const SlotFact &F : Facts) {
    if (F.Group == SlotFact::NoGroup || Seen.test(F.Group))
      return false;
    Seen.set(F.Group);
  }
  return true;
}

// The function that runs Code on S's device, and its parameters: the
// generic code takes the staged values as one more (into GenericParams).
static llvm::Error functionAndParams(const LaunchRequest &L,
                                     const StagedLaunch &Staged,
                                     const LaunchCode &Code, bool Capturing,
                                     void **&Params,
                                     llvm::SmallVectorImpl<void *> &Generic,
                                     CUfunction &Function) {
  if (Code.Generic) {
    Generic.assign(Params, Params + L.NumParams);
    if (!L.K->Blob.StageSites.empty())
      Generic.push_back(const_cast<char *>(Staged.stagedBytes().data()));
    Params = Generic.data();
    const GenericKernel &G = *Code.Generic;
    llvm::Expected<CUfunction> F =
        G.Owner->entry(G, G.HasDisjoint && eachSlotApart(L.Facts));
    if (!F)
      return withKernel(F.takeError(), *L.K);
    Function = *F;
    return llvm::Error::success();
  }
  // Compiled once, loaded on each device that launches it.
  llvm::Expected<CUfunction> F =
      functionOn(*L.K, backend(), *Code.Compiled, *L.S->driver(), Capturing);
  if (!F)
    return F.takeError();
  Function = *F;
  return llvm::Error::success();
}

static void unloadUncached(const LaunchCode &Code, Stream &S) {
  if (Code.Uncached && Code.Uncached->Code.Module)
    llvm::consumeError(backend().unloadModule(S.driver()->index(),
                                              Code.Uncached->Code.Module));
}

// The driver refused the launch: the launch's own failure, or one that an
// earlier kernel's fault makes every later call fail with (naming those).
// A failure without a CUDA error is the runtime's own refusal (a cooperative
// grid too large to be resident).
static llvm::Error launchFailure(const LaunchRequest &L, llvm::Error St) {
  CUresult Code = cudaErrorCode(St);
  if (Code == CUDA_SUCCESS || Code == CUDA_ERROR_INVALID_VALUE ||
      Code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
      Code == CUDA_ERROR_INVALID_HANDLE)
    return withKernel(std::move(St), *L.K);
  return asyncFailure(std::move(St), L.S,
                      "launching kernel '" + L.K->Blob.PrettyName + "'");
}

// Code that is not cached is unloaded after its kernel, which must be
// waited for; so must every launch under MSTAGE_LAUNCH_BLOCKING=1.
static llvm::Error waitIfBlocking(const LaunchRequest &L,
                                  const LaunchCode &Code, bool Capturing) {
  Stream &S = *L.S;
  if (Capturing || !(Code.Uncached || launchBlockingSetting().Value))
    return llvm::Error::success();
  llvm::Error St = S.driver()->synchronizeStream(S.handle());
  unloadUncached(Code, S);
  if (St)
    return withKernel(
        context(std::move(St), "failed", RuntimeFailure::Join::Clause), *L.K);
  S.forgetLaunches();
  return llvm::Error::success();
}

llvm::Error launchOnGpu(const LaunchRequest &L, const StagedLaunch &Staged,
                        const LaunchCode &Code, bool TimeKernel,
                        double &KernelMs) {
  Stream &S = *L.S;
  assert(S.driver() && "a stream on the GPU has a driver");
  bool Capturing = S.capturing();
  void **Params = const_cast<void **>(L.Params);
  // Destroyed after the launch: frees the copies after the kernel.
  ParamsInMemory Moved;
  if (L.InMemory) {
    if (llvm::Error E = Moved.copy(*S.driver(), S.handle(), L.Params,
                                   L.ParamSizes, L.NumParams, L.InMemory))
      return withKernel(
          context(std::move(E), "cannot copy " +
                                    std::to_string(mstage::bytesInMemory(
                                        L.paramSizes(), L.InMemory)) +
                                    " bytes of parameters to device memory"),
          *L.K);
    Params = Moved.params();
  }
  llvm::SmallVector<void *, 16> GenericParams;
  CUfunction Function = nullptr;
  if (llvm::Error E = functionAndParams(L, Staged, Code, Capturing, Params,
                                        GenericParams, Function))
    return E;
  float Ms = 0;
  bool Timed = TimeKernel && !Capturing;
  // MSTAGE_GRAPHS=auto: a launch whose record is all it runs with may be held
  // back and replayed in a graph (docs/graphs.md); another one first enqueues
  // what is held, before its span and timing begin.
  bool Replay = !Capturing && replayOn();
  // A kernel that synchronizes its grid is launched cooperatively, and never
  // held for a replay's graph.
  bool Cooperative = L.K->Blob.Traits.SyncsGrid;
  // A specialization that waits at its entry may overlap the kernel before
  // it (MSTAGE_PDL); the generic code has no wait.
  LaunchKind How = Cooperative ? LaunchKind::Cooperative
                   : !Code.Generic && Code.Compiled->EntryWaits
                       ? LaunchKind::Programmatic
                       : LaunchKind::Plain;
  bool Candidate = Replay && !Timed && !L.InMemory && !Code.Generic &&
                   !Code.Uncached && !Cooperative;
  if (Replay && !Candidate)
    if (llvm::Error E = enqueueHeldWork("a launch that cannot be replayed"))
      return E;
  // A specialization may run at fewer blocks a multiprocessor than fit
  // (MSTAGE_OCCUPANCY): Config gets the limit's padding.
  LaunchConfig Config = L.Config;
  std::optional<OccupancyTrial> Occupancy;
  if (!Code.Generic && !Code.Uncached && !Cooperative)
    Occupancy.emplace(L, Function, !Capturing && !(Replay && Candidate), Config,
                      [&]() -> std::optional<CacheKey> {
                        // Tier 0's code is not the entry's.
                        if (!Code.Entry || Code.Compiled != &Code.Entry->Code)
                          return std::nullopt;
                        return diskCacheKey(
                            {*L.K, backend(), L.S->driver(), L.Config, Staged});
                      });
  GpuSpan Run(SpanKind::Kernel, *S.driver(), S.handle(), S.id(), Capturing);
  if (Code.Generic)
    Run.ranGenericCode();
  GenericRunTimer Policy(L, Code.Generic, Capturing);
  bool Held = false;
  llvm::Error St = llvm::Error::success();
  if (Replay && !Cooperative) {
    St = launchOrHold(S,
                      {Function, &Config, Params, L.paramSizes(), L.HostEntry,
                       &L.K->Blob.PrettyName, How, Code.Entry},
                      Candidate, Timed ? &Ms : nullptr, Held);
  } else {
    St = backend().launch(S, Function, Config, Params, How,
                          Timed ? &Ms : nullptr);
  }
  KernelMs = Ms;
  if (St) {
    unloadUncached(Code, S);
    return launchFailure(L, std::move(St));
  }
  if (!Held) // a held launch's span would time nothing
    Run.enqueued();
  Policy.enqueued();
  if (Occupancy)
    Occupancy->enqueued();
  S.noteLaunch(L.HostEntry, L.K->Blob.PrettyName, L.K->Blob.Location);
  return waitIfBlocking(L, Code, Capturing);
}

} // namespace mstage::rt
