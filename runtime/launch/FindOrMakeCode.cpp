//===- FindOrMakeCode.cpp - The code a launch runs ------------------------===//
#include "launch/FindOrMakeCode.h"
#include "cache/DiskCache.h"
#include "core/Backend.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/Nvtx.h"
#include "inspect/TraceEvents.h"
#include "launch/BuildKey.h"
#include "launch/CompileInBackground.h"
#include "launch/JitPolicy.h"
#include "launch/MakeCode.h"
#include "support/Settings.h"

#include <cassert>
#include <mutex>
#include <optional>

namespace mstage::rt {

llvm::Error compileNow(const CodeRequest &R, CacheEntry &E, LaunchTimes &Times,
                       bool Capturing) {
  std::unique_lock<std::mutex> G(E.Compiling, std::try_to_lock);
  if (!G.owns_lock()) {
    // The background pool compiles it: this launch waits for that compile.
    std::optional<NvtxRange> Wait;
    if (nvtxActive())
      Wait.emplace("wait jit " + nvtxKeyText(R.K.Blob, R.Staged.key()));
    G.lock();
  }
  EntryState State = E.State.load(std::memory_order_acquire);
  if (State == EntryState::Ready)
    return llvm::Error::success();
  if (State == EntryState::Failed)
    return llvm::make_error<RuntimeFailure>(*E.Failure);
  // A captured stream's launches are recorded; making the code (module
  // loads, ptxas) is not, and is allowed meanwhile.
  std::optional<unsigned> Restore;
  if (Capturing)
    Restore = R.B.relaxCapture();
  llvm::Error Err = makeCode(R, E.Code, Times);
  if (Restore)
    R.B.restoreCapture(*Restore);
  if (Err)
    return Err;
  // A queued background compile finds the entry ready and does nothing.
  E.State.store(EntryState::Ready, std::memory_order_release);
  return llvm::Error::success();
}

// The generic code that a launch whose code is not ready may run instead
// of waiting, or null. Not with MSTAGE_JIT=sync (nor PTX-only mode's default,
// nor at exit), MSTAGE_CACHE=off (no code is kept to switch to), while the
// stream is captured (the graph keeps the specialized code) or with fast math
// (the generic code is IEEE, and would give other results).
static const GenericKernel *genericCodeFor(const LaunchRequest &L,
                                           bool Capturing) {
  const RegisteredKernel &K = *L.K;
  // The generic code is loaded on the default device only.
  if (!compilesInBackground() || cacheSettings().Mode == CacheMode::Off ||
      Capturing || L.Config.fastMath() || !K.Generic ||
      L.S->driver() != backend().driver(backend().defaultDevice()))
    return nullptr;
  return K.Generic->find(K.Blob.Name);
}

// Whether E's code, not queued yet, is in the disk cache: an earlier process
// compiled it. It is loaded now, as a program that nvcc built loads its
// module at its first launch: the generic code would run slower meanwhile,
// and its module and (under MSTAGE_JIT=auto) the kernel's weight would be
// read for nothing. Not with MSTAGE_JIT=generic, nor with MSTAGE_DUMP=ir
// (which compiles); a launch that waits anyway (sync) need not look.
static bool loadsFromDisk(const LaunchRequest &L, const StagedLaunch &Staged,
                          const CacheEntry &E) {
  if (!compilesInBackground() || cacheSettings().Mode != CacheMode::Disk ||
      dumpSettings().IR || jitSettings().Policy == JitSettings::Mode::Generic ||
      E.State.load(std::memory_order_acquire) != EntryState::Empty)
    return false;
  return inDiskCache(
      diskCacheKey({*L.K, backend(), L.S->driver(), L.Config, Staged}));
}

// E's code is not ready: the generic code runs while it compiles in the
// background, or it is made now (JitPolicy.h chooses under MSTAGE_JIT=auto);
// an entry on disk is loaded now.
static llvm::Error onMiss(const LaunchRequest &L, const StagedLaunch &Staged,
                          CacheEntry &E, LaunchTimes &Times, LaunchCode &Code) {
  bool Capturing = L.S->capturing();
  if (!Code.Uncached && !loadsFromDisk(L, Staged, E))
    Code.Generic = genericCodeFor(L, Capturing);
  // MSTAGE_JIT=auto: the launch waits when its compile is expected to be
  // short against its work; not for a compile that failed (the generic code
  // keeps running).
  if (Code.Generic && jitSettings().Policy == JitSettings::Mode::Auto &&
      E.State.load(std::memory_order_acquire) != EntryState::Failed &&
      waitsForSpecialization(L))
    Code.Generic = nullptr;
  // MSTAGE_JIT=generic measures the generic code: nothing is specialized.
  if (Code.Generic && jitSettings().Policy == JitSettings::Mode::Generic) {
    Times.Source = CodeSource::Generic;
    return llvm::Error::success();
  }
  if (Code.Generic) {
    // The launch that queues the compile runs the generic code, whatever the
    // pool made meanwhile: MSTAGE_JIT=async's first launch never waits, and
    // its choice does not depend on how fast a worker was.
    if (queueSpecialization(*L.K, E, Times.Evaluate, L.S->driver(),
                            /*Tiered=*/true)) {
      Times.Source = CodeSource::Generic;
      return llvm::Error::success();
    }
    // Tier 0, once made, runs instead of the generic code until tier 1 is
    // ready (CompileInBackground.h); not once tier 1 failed, whose message
    // says that the generic code keeps running.
    EntryState State = E.State.load(std::memory_order_acquire);
    if (State != EntryState::Ready && State != EntryState::Failed &&
        E.QuickReady.load(std::memory_order_acquire)) {
      Code.Generic = nullptr;
      Code.Compiled = &E.Quick;
      Times.Source = CodeSource::Tier0;
      return llvm::Error::success();
    }
    if (!E.ready()) {
      Times.Source = CodeSource::Generic;
      return llvm::Error::success();
    }
    Code.Generic = nullptr; // made meanwhile
  }
  if (llvm::Error Err =
          compileNow({*L.K, backend(), L.S->driver(), L.Config, Staged}, E,
                     Times, Capturing))
    return Err;
  if (Code.Uncached)
    Times.Source = CodeSource::Uncached;
  return llvm::Error::success();
}

llvm::Error findOrMakeCode(const LaunchRequest &L, const StagedLaunch &Staged,
                           LaunchTimes &Times, LaunchCode &Code) {
  assert(L.K && L.S && "the launch's arguments are resolved");
  const RegisteredKernel &K = *L.K;
  const CacheSettings &Cache = cacheSettings();
  if (L.S->capturing() && Cache.Mode == CacheMode::Off && backend().loadsCode())
    return withKernel(failure("cannot be captured into a graph with "
                              "MSTAGE_CACHE=off: the graph needs the code to "
                              "stay loaded"),
                      K);
  // The hit path: a shared lock, no allocation, no IR.
  TracePoint Lookup = traceNow();
  CacheEntry *E = Cache.Mode == CacheMode::Off
                      ? &Code.Uncached.emplace()
                      : K.Specializations->find(Staged.key());
  noteMemoryLookup(Lookup, E && E->ready());
  // A tool sees each launch's code: here, from the memory cache.
  std::optional<NvtxRange> FromMemory;
  if (nvtxActive() && E && E->ready())
    FromMemory.emplace("jit " + nvtxKeyText(K.Blob, Staged.key()) + " memory");
  if (!E || !E->ready()) {
    if (!E)
      E = &K.Specializations->findOrInsert(Staged.key());
    if (llvm::Error Err = onMiss(L, Staged, *E, Times, Code))
      return Err;
  }
  assert((Code.Generic || Code.Compiled || E->ready()) &&
         "the code runs once it is made");
  if (!Code.Compiled)
    Code.Compiled = &E->Code;
  Code.Entry = E;
  Times.FromCubin = !Code.Generic && Code.Compiled->FromCubin;
  if (traceEnabled())
    traceLaunch(K.Blob, L.Config, Staged.Values, Staged.Facts, Times);
  noteLaunchCode(K.Blob, Staged.key(), Times);
  return llvm::Error::success();
}

} // namespace mstage::rt
