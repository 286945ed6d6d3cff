//===- TraceEvents.h - What the runtime did, as spans on tracks -*- C++ -*-===//
//
// MSTAGE_TRACE=chrome:FILE and MSTAGE_STATS=1 record what the runtime does as
// spans: on the track of the host thread that does it (staged-value
// evaluation, cache lookups, compiles, module loads, synchronous copies), or
// on the track of the stream where it runs (kernels and stream-ordered
// copies: on a GPU timed by CUDA events recorded around them and read back
// when the stream is waited for or at exit; off the GPU as measured). A span
// is named after the kernel its thread works on, with the launch's staged
// values. At exit, after the compile pool has finished, the spans are written
// as a Chrome trace (ChromeTrace.h) and the table of MSTAGE_STATS is printed
// (Stats.h).
//
// Off, as by default, every hook below is the test of a flag that is read
// once: the launch path neither allocates nor locks for them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_TRACEEVENTS_H
#define MSTAGE_RUNTIME_INSPECT_TRACEEVENTS_H

#include "cuda/CudaDriver.h"
#include "formats/KernelBlob.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace mstage::rt {

struct LaunchTimes;

using TraceClock = std::chrono::steady_clock;
using TracePoint = TraceClock::time_point; // TracePoint(): not recording

enum class SpanKind : uint8_t {
  Launch,
  Evaluate,
  MemoryCache,
  DiskCache,
  Compile,
  Optimize,
  Codegen,
  Ptxas,
  Load,
  // The JIT's read of a kernel's bitcode, within its optimize span: only a
  // compile reads it (the JIT policy's weight is in the kernel's blob).
  ReadIr,
  Kernel,
  CopyToDevice,
  CopyToHost,
  CopyOnDevice
};

// "launch", "evaluate", "memory cache", ...: the span's category.
const char *spanKindName(SpanKind Kind);

// Reads MSTAGE_TRACE and MSTAGE_STATS; when either records, registers the
// exit handler that writes the trace and prints the table.
bool startRecording();

// What the exit handler calls before it writes the trace, so that the
// background compiles' spans are complete: the compile pool's stop, given by
// jit/CompilePool.cpp when it makes the pool (jit/ is above this room).
void setStopCompilesAtExit(void (*Stop)());

// Whether spans are recorded. Read once; after that a plain load.
inline bool recording() {
  static const bool On = startRecording();
  return On;
}

inline TracePoint traceNow() {
  return recording() ? TraceClock::now() : TracePoint();
}

// A finished span of the calling thread. Outcome: "hit" or "miss" for a
// cache lookup, else null. Bytes: what a copy moved.
void recordHostSpan(SpanKind Kind, TracePoint Start, TracePoint End,
                    const char *Outcome = nullptr, uint64_t Bytes = 0);

// A span of the calling thread, from construction to destruction.
class HostSpan {
public:
  explicit HostSpan(SpanKind Kind, uint64_t Bytes = 0)
      : Start(traceNow()), Bytes(Bytes), Kind(Kind) {}
  ~HostSpan() {
    if (Start != TracePoint())
      recordHostSpan(Kind, Start, TraceClock::now(), Outcome, Bytes);
  }
  HostSpan(const HostSpan &) = delete;
  HostSpan &operator=(const HostSpan &) = delete;
  void outcome(const char *O) { Outcome = O; }

private:
  TracePoint Start;
  uint64_t Bytes;
  const char *Outcome = nullptr;
  SpanKind Kind;
};

// The kernel that the calling thread works on while this lives: the
// thread's spans are named after it. With Launch, it is the launch's span
// too. Scopes nest (a launch that compiles).
class KernelScope {
public:
  KernelScope(const mstage::KernelBlob &Kernel,
              llvm::ArrayRef<llvm::StringRef> StagedValues = {},
              bool Launch = false) {
    if (recording())
      enter(Kernel, StagedValues, Launch);
  }
  ~KernelScope() {
    if (Kernel)
      leave();
  }
  KernelScope(const KernelScope &) = delete;
  KernelScope &operator=(const KernelScope &) = delete;

  // The span name's kernel part: "main::kernel_L9@f.cpp:9:12 {line 10: 256}".
  std::string label() const;
  const std::string &kernelName() const { return Kernel->PrettyName; }
  const std::string &stagedText() const { return Staged; }

private:
  friend void noteStaged(const mstage::KernelBlob &,
                         llvm::ArrayRef<llvm::StringRef>, TracePoint);
  friend void noteLaunchCode(const mstage::KernelBlob &, std::string_view,
                             const LaunchTimes &);
  void enter(const mstage::KernelBlob &Kernel,
             llvm::ArrayRef<llvm::StringRef> StagedValues, bool Launch);
  void leave();

  const mstage::KernelBlob *Kernel = nullptr;
  std::string Staged; // "{line 10: 256}", once evaluated
  const char *Cache = nullptr;
  KernelScope *Outer = nullptr;
  TracePoint Start;
  bool Launch = false;
};

// The launch of Kernel on this thread.
class LaunchScope : public KernelScope {
public:
  explicit LaunchScope(const mstage::KernelBlob &Kernel)
      : KernelScope(Kernel, {}, /*Launch=*/true) {}
};

// The launch's staged values were evaluated from Start to now: an
// "evaluate" span, and the launch's spans carry the values from now on.
void noteStaged(const mstage::KernelBlob &Kernel,
                llvm::ArrayRef<llvm::StringRef> StagedValues, TracePoint Start);

// The in-memory cache was searched from Start to now.
void noteMemoryLookup(TracePoint Start, bool Hit);

// The JIT's optimize and codegen phases (JitOutput's times), and the read
// of the kernel's bitcode that begins the optimize phase.
void noteJit(TracePoint OptimizeStart, double OptimizeMs, double ReadIrMs,
             TracePoint CodegenStart, double CodegenMs);

// A launch found or made its code (specialization Key): MSTAGE_STATS counts
// the launch by the code's source and adds what making it cost.
void noteLaunchCode(const mstage::KernelBlob &Kernel, std::string_view Key,
                    const LaunchTimes &Times);

// A compile that no launch waited for (in the background, or ahead)
// finished: MSTAGE_STATS adds its cost.
void noteCompileDone(const mstage::KernelBlob &Kernel,
                     const LaunchTimes &Times);

// Work on the stream StreamId that runs on the host (the CPU back end,
// PTX-only mode), from construction to destruction. A kernel's span is
// counted as a launch of the thread's kernel, with its run time.
class StreamSpan {
public:
  StreamSpan(SpanKind Kind, uint64_t StreamId, uint64_t Bytes = 0)
      : Start(traceNow()), StreamId(StreamId), Bytes(Bytes), Kind(Kind) {}
  ~StreamSpan() {
    if (Start != TracePoint())
      record();
  }
  StreamSpan(const StreamSpan &) = delete;
  StreamSpan &operator=(const StreamSpan &) = delete;

private:
  void record();
  TracePoint Start;
  uint64_t StreamId, Bytes;
  SpanKind Kind;
};

// Work enqueued on a GPU stream: CUDA events are recorded before it and, by
// enqueued(), after it; the span is read from them later. Not enqueued (its
// call failed), the span is dropped. Nothing is recorded while the stream is
// captured: the events would be nodes of the graph. The stream is given by
// its handle, number and capture state (core/Stream.h is above this room).
class GpuSpan {
public:
  GpuSpan(SpanKind Kind, CudaDriver &Driver, CUstream Stream,
          uint64_t StreamId, bool Capturing, uint64_t Bytes = 0) {
    if (recording() && !Capturing)
      begin(Kind, Driver, Stream, StreamId, Bytes);
  }
  ~GpuSpan() {
    if (Started)
      drop();
  }
  GpuSpan(const GpuSpan &) = delete;
  GpuSpan &operator=(const GpuSpan &) = delete;

  void enqueued() {
    if (Started)
      end();
  }
  // A kernel span: the launch runs the kernel's generic code (Stats.h).
  void ranGenericCode();
  // Err: the enqueuing call's result (0 is success), returned.
  int enqueued(int Err) {
    if (!Err)
      enqueued();
    return Err;
  }

private:
  void begin(SpanKind Kind, CudaDriver &Driver, CUstream Stream,
             uint64_t StreamId, uint64_t Bytes);
  void end();
  void drop();
  void *Started = nullptr; // the pending span
};

// Reads back the GPU spans whose work has completed (after a stream or the
// device was waited for).
void collectGpuSpans();

} // namespace mstage::rt

#endif
