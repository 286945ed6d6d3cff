//===- MakeCode.cpp - One specialization's code, from disk or the JIT -----===//
#include "launch/MakeCode.h"
#include "cache/CacheLock.h"
#include "cache/CubinWriter.h"
#include "cache/DiskCache.h"
#include "core/KernelRegistry.h"
#include "inspect/Nvtx.h"
#include "inspect/TraceEvents.h"
#include "launch/AssembleCode.h"
#include "launch/BuildKey.h"
#include "launch/DumpSidecar.h"
#include "launch/JitCompile.h"
#include "launch/JitPolicy.h"
#include "launch/LoadCode.h"
#include "launch/NoteResources.h"
#include "support/Elapsed.h"
#include "support/Settings.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <chrono>
#include <optional>

namespace mstage::rt {

// Writes R's freshly compiled Code to the disk cache under Key, unless the
// cache is off or read-only. PTX that the driver JIT-compiles gets its cubin
// later (CubinWriter.h).
static void storeCode(const CodeRequest &R, const CacheKey &Key,
                      const CachedCode &Code) {
  const CacheSettings &Cache = cacheSettings();
  if (Cache.Mode != CacheMode::Disk || Cache.ReadOnly)
    return;
  if (R.B.loadsCode() && Code.Cubin.empty())
    storeWithCubinLater(Key, R.K.Blob.PrettyName, Code.PTX, R.B.arch());
  else
    storeInDiskCache(Key, Code);
}

llvm::Error makeCode(const CodeRequest &R, CompiledKernel &Out,
                     LaunchTimes &Times,
                     llvm::function_ref<void()> BeforeCompile) {
  assert((!R.B.loadsCode() || R.D) && "the GPU loads on a device");
  CacheKey Key = diskCacheKey(R);
  auto T0 = std::chrono::steady_clock::now();
  CachedCode Code;
  // The disk cache keeps no IR, so MSTAGE_DUMP=ir compiles.
  std::optional<CachedCode> Hit;
  // Held while this process compiles Key's entry: other processes wait for
  // it rather than compile it too (DiskCache.h).
  CacheLock Lock;
  std::optional<DriverJitClaim> DriverJit; // held until the load
  // The specialization as MSTAGE_STATS and the NVTX ranges name it.
  auto Id = [&] { return nvtxKeyText(R.K.Blob, R.Staged.key()); };
  if (!dumpSettings().IR) {
    std::optional<NvtxRange> LoadRange;
    if (nvtxActive() && cacheSettings().Mode == CacheMode::Disk)
      LoadRange.emplace("cache load " + Id());
    HostSpan Lookup(SpanKind::DiskCache);
    Hit = loadFromDiskCacheOrLock(Key, Lock);
    Lookup.outcome(Hit ? "hit" : "miss");
  }
  // The JIT's range: what making the code took, and where it came from.
  std::optional<NvtxRange> JitRange;
  if (nvtxActive())
    JitRange.emplace("jit " + Id() +
                     (Hit                ? " disk"
                      : Times.Background ? " generic"
                                         : " fresh"));
  if (Hit) {
    Times.Source = CodeSource::Disk;
    Code = std::move(*Hit);
  } else {
    if (BeforeCompile)
      BeforeCompile();
    HostSpan Compile(SpanKind::Compile);
    Times.Source = CodeSource::Compiled;
    llvm::Expected<std::string> PTX = compileToPtx(R, shortHash(Key), Times);
    if (!PTX)
      return PTX.takeError();
    Code.PTX = std::move(*PTX);
    T0 = std::chrono::steady_clock::now();
    DriverJit.emplace(R.B.loadsCode(), Code.PTX.size());
    if (llvm::Error E = assembleCode(R, Key, *DriverJit, Code))
      return E;
  }
  if (llvm::Error E = loadCode(R, Code, Out))
    return E;
  Times.Load = msSince(T0);
  if (R.B.loadsCode() && resourcesWanted())
    noteResourcesOfFunction(R, Out.Function);
  Times.FromCubin = Out.FromCubin;
  DriverJit.reset(); // loaded: the driver's JIT is free for another
  // After the load, which the launch waits for: the entry's write and the
  // start of ptxas for its cubin (CubinWriter.h) are not (Listing 4 on an
  // H100: 26 ms of load with them before it, 16 ms without ptxas at all).
  if (!Hit) {
    storeCode(R, Key, Code);
    Lock.release(); // the entry is stored: waiting processes read it
    noteCompileMs(R.K, Times.Optimize + Times.Codegen + Times.Load);
  }
  dumpCode(R, Key, Code, Times);
  return llvm::Error::success();
}

// The IR instructions (KernelWork::Instructions: the kernel's and its
// callees', before specialization) from which a kernel's tier-0 PTX reaches
// DriverJitClaim::LargePtxBytes. Tier 0 makes 32-58 bytes of PTX per such
// instruction (docs/performance.md: Listing 4 32, the stencil's four
// kernels 57-58 at 6,040-9,719 instructions), so 1,200 instructions are
// about 64 KiB at the most; a kernel misjudged below it is still caught by
// its PTX's size.
static constexpr uint64_t LargeKernelInstructions = 1200;

bool quickCodeWanted(const RegisteredKernel &K) {
  const KernelWork &W = K.Blob.Work;
  if (W.Instructions < LargeKernelInstructions)
    return true;
  if (traceEnabled())
    llvm::errs() << "mstage: trace: jit: kernel '" << K.Blob.PrettyName
                 << "' gets no tier-0 code: " << W.Instructions
                 << " IR instructions, over the " << LargeKernelInstructions
                 << " whose PTX reaches "
                 << DriverJitClaim::LargePtxBytes / 1024 << " KiB\n";
  return false;
}

llvm::Expected<bool> makeQuickCode(const CodeRequest &R, CompiledKernel &Out,
                                   LaunchTimes &Times) {
  HostSpan Compile(SpanKind::Compile);
  Times.Source = CodeSource::Tier0;
  // No dump (tier 1's is), so no hash to name it with.
  llvm::Expected<std::string> PTX =
      compileToPtx(R, /*ShortHash=*/0, Times, /*Quick=*/true);
  if (!PTX)
    return PTX.takeError();
  // A large kernel's tier 0 would hold its worker for about as long as tier
  // 1 (the driver's JIT of the stencil's 334-551 KiB of PTX takes most of a
  // ptxas run) and keep the driver's JIT from the other compiles.
  if (PTX->size() >= DriverJitClaim::LargePtxBytes)
    return false;
  auto T0 = std::chrono::steady_clock::now();
  // At -O1: ptxas -O1 takes 9% less CPU than -O3 on tier 0's PTX of Listing
  // 4 (docs/performance.md); -O0 would be in use 10 ms sooner, but its code
  // ran Listing 4 2.2 times slower than the generic code (H100). ptxas, not
  // the driver's JIT, which would stall the program's launches meanwhile
  // (AssembleCode.h); the cubin is not kept. Without ptxas, the driver's
  // JIT at -O1.
  CachedCode Code;
  Code.PTX = std::move(*PTX);
  if (R.B.loadsCode()) {
    llvm::Expected<std::string> Cubin =
        assembleWithPtxas(R.K.Blob.PrettyName, Code.PTX, R.B.arch(),
                          /*Report=*/nullptr, std::nullopt, {}, /*OptLevel=*/1);
    if (!Cubin)
      return withKernel(Cubin.takeError(), R.K);
    Code.Cubin = std::move(*Cubin);
  }
  if (llvm::Error E = loadCode(R, Code, Out, /*PtxOptLevel=*/1))
    return std::move(E);
  Times.Load = msSince(T0);
  Times.FromCubin = Out.FromCubin;
  return true;
}

} // namespace mstage::rt
