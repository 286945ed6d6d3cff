//===- Trace.h - MSTAGE_TRACE: one line per launch ------------------------===//
#ifndef MSTAGE_RUNTIME_TRACE_H
#define MSTAGE_RUNTIME_TRACE_H

#include "KernelBlob.h"
#include "mstage/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mstage::rt {

// Where a launch's code came from, and what making it cost (milliseconds).
struct LaunchTimes {
  const char *Cache = "memory"; // memory, disk, miss or off
  double Evaluate = 0, Optimize = 0, Codegen = 0, Load = 0;
};

// MSTAGE_TRACE=1, read once.
bool traceEnabled();

// Prints the launch of Kernel to stderr on one line: the kernel, its launch
// configuration, its staged values (with their source lines), the cache
// result and the times.
void traceLaunch(const KernelBlob &Kernel, const mstage_launch_config &Config,
                 llvm::ArrayRef<llvm::StringRef> StagedValues,
                 const LaunchTimes &Times);

} // namespace mstage::rt

#endif
