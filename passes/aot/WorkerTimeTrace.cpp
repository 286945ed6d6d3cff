//===- WorkerTimeTrace.cpp - -ftime-trace events of worker threads --------===//
#include "aot/WorkerTimeTrace.h"

#include "llvm/Support/TimeProfiler.h"

#include <atomic>

namespace mstage {

// clang's default, for a compile whose action did not say.
static std::atomic<unsigned> Granularity{500};

void setTimeTraceGranularity(unsigned Microseconds) {
  Granularity = Microseconds;
}

WorkerTimeTrace WorkerTimeTrace::ofCaller() {
  WorkerTimeTrace T;
  T.Enabled = llvm::timeTraceProfilerEnabled();
  return T;
}

WorkerTimeTrace::Scope::Scope(const WorkerTimeTrace &Trace) {
  // A task that runs on the traced thread itself records there already.
  if (!Trace.Enabled || llvm::timeTraceProfilerEnabled())
    return;
  llvm::timeTraceProfilerInitialize(Granularity, "mstage worker");
  Started = true;
}

WorkerTimeTrace::Scope::~Scope() {
  if (Started)
    llvm::timeTraceProfilerFinishThread();
}

} // namespace mstage
