//===- Trace.h - MSTAGE_TRACE: one line per launch ------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_TRACE_H
#define MSTAGE_RUNTIME_INSPECT_TRACE_H

#include "formats/KernelBlob.h"
#include "mstage/abi.h"
#include "support/Settings.h"
#include "transforms/LaunchFacts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mstage::rt {

// Where a launch's code came from; the values are those of
// mstage_rt_last_launch_source. Generic: the ahead-of-time generic code ran
// while the specialization compiles in the background.
enum class CodeSource {
  Memory = 0,
  Disk = 1,
  Compiled = 2,
  Uncached = 3,
  Generic = 4,
  Tier0 = 5 // the quick code that runs until the full compile replaces it
};

// How MSTAGE_TRACE and the dump's JSON name it: memory, disk, miss, off,
// generic or tier0.
const char *codeSourceName(CodeSource Source);

// Where a launch's code came from, and what making it cost (milliseconds).
struct LaunchTimes {
  CodeSource Source = CodeSource::Memory;
  // Load: from the PTX to a loaded module, through ptxas when it is used.
  double Evaluate = 0, Optimize = 0, Codegen = 0, Load = 0;
  bool FromCubin = false;  // the module is ptxas's cubin, not the driver's
  bool Background = false; // made by the background compile pool
  // Bytes of parameters (captures) the kernel reads from device memory, as
  // they are over the parameter-space limit (CaptureInMemory.h).
  uint64_t BytesInMemory = 0;
};

// MSTAGE_TRACE=1: the text trace.
bool traceEnabled();

// The staged values of a launch as the trace prints them:
// "{line 12: 256, line 13: true}".
std::string stagedValuesText(const KernelBlob &Kernel,
                             llvm::ArrayRef<llvm::StringRef> StagedValues);

// Prints the launch of Kernel to stderr on one line: the kernel, its launch
// configuration, its staged values (with their source lines), the cache
// result, the facts about its pointers ("views", LaunchFacts.h), the
// bytes of parameters moved to device memory and the times. A background
// compile prints the same line when it is done, marked "(background)".
void traceLaunch(const KernelBlob &Kernel, const mstage_launch_config &Config,
                 llvm::ArrayRef<llvm::StringRef> StagedValues,
                 llvm::ArrayRef<SlotFact> Facts, const LaunchTimes &Times);

// The same line for a launch on the CPU back end: nothing is compiled, so
// it gives how the threads of a block ran (fibers, or a plain loop), the OS
// threads, and the launch's wall time.
void traceCpuLaunch(const KernelBlob &Kernel,
                    const mstage_launch_config &Config, bool Fibers,
                    unsigned OsThreads, double RunMs);

} // namespace mstage::rt

#endif
