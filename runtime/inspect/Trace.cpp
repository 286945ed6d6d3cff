//===- Trace.cpp - MSTAGE_TRACE: one line per launch ----------------------===//
#include "inspect/Trace.h"
#include "formats/StageValueText.h"
#include "inspect/ChecksNote.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace llvm;

namespace mstage::rt {

bool traceEnabled() { return traceSetting().Text; }

std::string stagedValuesText(const KernelBlob &Kernel,
                             ArrayRef<StringRef> StagedValues) {
  assert(StagedValues.size() <= Kernel.StageSites.size() &&
         "one staged value per stage site");
  std::string Text = "{";
  for (size_t I = 0; I < StagedValues.size(); ++I) {
    const StageSite &S = Kernel.StageSites[I];
    Text += (I ? ", line " : "line ") + std::to_string(S.Line) + ": " +
            formatStageValue(S, StagedValues[I]);
  }
  return Text + "}";
}

const char *codeSourceName(CodeSource Source) {
  switch (Source) {
  case CodeSource::Memory:
    return "memory";
  case CodeSource::Disk:
    return "disk";
  case CodeSource::Compiled:
    return "miss";
  case CodeSource::Uncached:
    return "off";
  case CodeSource::Generic:
    return "generic";
  case CodeSource::Tier0:
    return "tier0";
  }
  return "unknown";
}

// "mstage: trace: kernel 'K' grid AxBxC block AxBxC shared N[ fast-math]"
static void traceHead(raw_ostream &OS, const KernelBlob &Kernel,
                      const mstage_launch_config &C) {
  OS << "mstage: trace: kernel '" << Kernel.PrettyName << "' grid " << C.grid[0]
     << "x" << C.grid[1] << "x" << C.grid[2] << " block " << C.block[0] << "x"
     << C.block[1] << "x" << C.block[2] << " shared " << C.shared_bytes
     << (C.flags & MSTAGE_LAUNCH_FAST_MATH ? " fast-math" : "");
}

void traceCpuLaunch(const KernelBlob &Kernel, const mstage_launch_config &C,
                    bool Fibers, unsigned OsThreads, double RunMs) {
  traceChecksOnce();
  std::string Line;
  raw_string_ostream OS(Line);
  traceHead(OS, Kernel, C);
  OS << " backend cpu (" << (Fibers ? "fibers" : "loop") << ", " << OsThreads
     << " threads)" << format(": run %.3f ms", RunMs) << "\n";
  errs() << Line;
}

void traceLaunch(const KernelBlob &Kernel, const mstage_launch_config &C,
                 ArrayRef<StringRef> StagedValues, ArrayRef<SlotFact> Facts,
                 const LaunchTimes &T) {
  traceChecksOnce();
  std::string Line;
  raw_string_ostream OS(Line);
  traceHead(OS, Kernel, C);
  OS << " staged " << stagedValuesText(Kernel, StagedValues) << " cache "
     << codeSourceName(T.Source) << (T.Background ? " (background)" : "")
     << format(": evaluate %.3f ms", T.Evaluate);
  // A launch that runs tier 0 found it made, as a memory hit does.
  bool Made = T.Source != CodeSource::Memory &&
              T.Source != CodeSource::Generic &&
              (T.Source != CodeSource::Tier0 || T.Background);
  if (Made)
    OS << format(", optimize %.3f ms, codegen %.3f ms, load %.3f ms (%s)",
                 T.Optimize, T.Codegen, T.Load, T.FromCubin ? "cubin" : "ptx");
  // How the code was made: what the JIT knew about the views.
  if (!Facts.empty() && Made)
    OS << "; views {" << formatLaunchFacts(Facts) << "}";
  if (T.BytesInMemory)
    OS << "; capture " << T.BytesInMemory << " B in memory";
  OS << "\n";
  errs() << Line;
}

} // namespace mstage::rt
