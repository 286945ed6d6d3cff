//===- WorkerTimeTrace.h - -ftime-trace events of worker threads ---*- C++
//-*-===//
//
// clang's -ftime-trace records the thread that runs the compile; the
// plugin's threads (each kernel's device optimization, the ahead-of-time
// compile) record theirs only when each starts a profiler of its own and
// hands its events over when it ends, which WorkerTimeTrace does.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_WORKERTIMETRACE_H
#define MSTAGE_PASSES_AOT_WORKERTIMETRACE_H

namespace mstage {

// The granularity of clang's -ftime-trace (its -ftime-trace-granularity),
// which the front-end action reads.
void setTimeTraceGranularity(unsigned Microseconds);

class WorkerTimeTrace {
public:
  // On the thread that hands out the work: whether it is traced.
  static WorkerTimeTrace ofCaller();
  // On the worker, around its work; nothing when the caller is untraced.
  class Scope {
  public:
    explicit Scope(const WorkerTimeTrace &Trace);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    bool Started = false;
  };

private:
  bool Enabled = false;
};

} // namespace mstage

#endif
