//===- JitCompile.cpp - A specialization's PTX, from the JIT --------------===//
#include "launch/JitCompile.h"
#include "inspect/Dump.h"
#include "inspect/TraceEvents.h"
#include "jit/JitCompiler.h"
#include "launch/LaunchRequest.h"
#include "support/Settings.h"

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

llvm::Expected<std::string> compileToPtx(const CodeRequest &R,
                                         uint64_t ShortHash, LaunchTimes &Times,
                                         bool Quick) {
  bool WantIR = dumpSettings().IR && !Quick;
  JitOptions Opts;
  Opts.Arch = R.B.arch();
  Opts.Quick = Quick;
  auto Result = compileKernel(R.K.Blob, specializationOf(R), Opts, WantIR);
  if (!Result)
    return Result.takeError();
  Times.Optimize = Result->OptimizeMs;
  Times.Codegen = Result->CodegenMs;
  noteJit(Result->OptimizeStart, Result->OptimizeMs, Result->CodegenStart,
          Result->CodegenMs);
  if (WantIR)
    dumpFile(R.K.Blob.Name, ShortHash, "ll", Result->OptimizedIR);
  return std::move(Result->PTX);
}

} // namespace mstage::rt
