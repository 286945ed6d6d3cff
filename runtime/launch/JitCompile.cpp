//===- JitCompile.cpp - A specialization's PTX, from the JIT --------------===//
#include "launch/JitCompile.h"
#include "cuda/CudaDriver.h"
#include "inspect/Dump.h"
#include "inspect/Trace.h"
#include "inspect/TraceEvents.h"
#include "jit/JitCompiler.h"
#include "launch/LaunchRequest.h"
#include "support/Settings.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>

namespace mstage::rt {

// What the JIT folds into the code: the staged values, the facts of the
// pointers and the launch configuration.
static Specialization specializationOf(const CodeRequest &R) {
  Specialization Spec;
  Spec.StagedValues = R.Staged.Values;
  Spec.Facts = R.Staged.Facts;
  Spec.Config = R.Config;
  return Spec;
}

// MSTAGE_TRACE says once per run that kernels of a unit built with -g at
// -O0 compile for the debugger, so that their times are not taken for the
// optimized code's.
static void traceDebugBuildOnce(const KernelBlob &K) {
  static std::once_flag Once;
  std::call_once(Once, [&] {
    llvm::errs() << "mstage: trace: " << K.PrettyName
                 << " (and any other kernel of a unit built with -g at -O0) "
                    "compiles without optimization, with full debug "
                    "information, for cuda-gdb\n";
  });
}

bool entryWaitWanted(const CodeRequest &R) {
  if (!pdlSetting().Value || R.K.Blob.DebugAtO0)
    return false;
  llvm::StringRef Arch = R.B.arch();
  unsigned SM = 0;
  if (!Arch.consume_front("sm_") || Arch.consumeInteger(10, SM) || SM < 90)
    return false;
  // Before ptxas the occupancy is not known; no sm_90+ multiprocessor holds
  // more than 2048 threads in at most 32 blocks. Off the GPU (PTX-only
  // mode) the device is not known: the wait is written.
  if (!R.D)
    return true;
  uint64_t PerMultiprocessor = std::min<uint64_t>(
      32, 2048 / std::max<uint64_t>(R.Config.blockThreads(), 1));
  return R.Config.blocks() <=
         PerMultiprocessor * uint64_t(R.D->multiprocessorCount());
}

llvm::Expected<std::string> compileToPtx(const CodeRequest &R,
                                         uint64_t ShortHash, LaunchTimes &Times,
                                         bool Quick) {
  if (R.K.Blob.DebugAtO0 && traceEnabled())
    traceDebugBuildOnce(R.K.Blob);
  bool WantIR = dumpSettings().IR && !Quick;
  JitOptions Opts;
  Opts.Arch = R.B.arch();
  Opts.Quick = Quick;
  Opts.EntryWait = entryWaitWanted(R);
  auto Result = compileKernel(R.K.Blob, specializationOf(R), Opts, WantIR);
  if (!Result)
    return Result.takeError();
  Times.Optimize = Result->OptimizeMs;
  Times.Codegen = Result->CodegenMs;
  noteJit(Result->OptimizeStart, Result->OptimizeMs, Result->ReadIrMs,
          Result->CodegenStart, Result->CodegenMs);
  if (WantIR)
    dumpFile(R.K.Blob.Name, ShortHash, "ll", Result->OptimizedIR);
  return std::move(Result->PTX);
}

} // namespace mstage::rt
