//===- AssembleCode.cpp - PTX to cubin: ptxas or the driver's JIT ---------===//
#include "launch/AssembleCode.h"
#include "cache/CubinWriter.h"
#include "jit/CompilePool.h"
#include "launch/NoteResources.h"
#include "support/Settings.h"

namespace mstage::rt {

DriverJitClaim::DriverJitClaim(bool OnGpu, size_t PtxBytes) {
  if (!OnGpu || !ptxasUsable())
    return; // the driver's JIT is the only way
  // Large PTX: ptxas, once. A background compile: ptxas too, as the
  // driver's JIT would stall the program's launches meanwhile (AssembleCode.h).
  if (PtxBytes >= LargePtxBytes || inCompileJob()) {
    Held = false;
    return;
  }
  Counted = InUse.fetch_add(1, std::memory_order_acq_rel) == 0;
  if (!Counted)
    InUse.fetch_sub(1, std::memory_order_acq_rel);
  Held = Counted;
}

llvm::Error assembleCode(const CodeRequest &R, const CacheKey &Key,
                         const DriverJitClaim &DriverJit, CachedCode &Code) {
  // The driver JIT-compiles the PTX for this launch; the cubin for the disk
  // cache is made meanwhile (CubinWriter.h).
  if (R.B.loadsCode() && DriverJit.held())
    return llvm::Error::success();
  // On the GPU, another compile is in the driver's JIT, which takes one PTX
  // at a time: ptxas, a process of its own, assembles this one meanwhile
  // ("" without ptxas: the driver's JIT). In PTX-only mode there is nothing
  // to load: ptxas checks the PTX and makes the entry whole. PTX that ptxas
  // rejects is this kernel's error, and is not cached.
  // MSTAGE_STATS: ptxas reports what the code uses as it assembles it.
  std::string Report;
  // A background compile's ptxas may be handed over at exit; not one whose
  // dump this process writes after the compile, nor a launch's own.
  const DumpSettings &Dump = dumpSettings();
  std::optional<PtxasKeep> Keep;
  llvm::function_ref<void(bool)> OnWait;
  if (inCompileJob() && !Dump.IR && !Dump.PTX && !Dump.SASS)
    Keep = handOverPaths(Key);
  if (Keep)
    OnWait = waitingForPtxas;
  auto Cubin = assembleWithPtxas(R.K.Blob.PrettyName, Code.PTX, R.B.arch(),
                                 resourcesWanted() ? &Report : nullptr,
                                 std::move(Keep), OnWait);
  if (!Cubin)
    return withKernel(Cubin.takeError(), R.K);
  if (!Report.empty())
    noteResourcesFromPtxas(R, Report);
  Code.Cubin = std::move(*Cubin);
  return llvm::Error::success();
}

} // namespace mstage::rt
