//===- TraceEvents.cpp - What the runtime did, as spans on tracks ---------===//
#include "inspect/TraceEvents.h"
#include "inspect/ChromeTrace.h"
#include "inspect/Stats.h"
#include "inspect/Trace.h"
#include "support/Warning.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

// Work enqueued on a GPU stream, between two CUDA events.
struct PendingGpu {
  CudaDriver *Driver = nullptr;
  CUstream Stream = nullptr;
  uint64_t StreamId = 0, Bytes = 0;
  CUevent Start = nullptr, End = nullptr;
  SpanKind Kind = SpanKind::Kernel;
  bool Generic = false; // a kernel run of the generic code
  std::string Name, Kernel, Staged;

  ~PendingGpu() {
    if (Start)
      consumeError(Driver->destroyEvent(Start));
    if (End)
      consumeError(Driver->destroyEvent(End));
  }
};

// Where a stream's events are on the host's clock: an event recorded on it
// before its first traced work, and the host time when it had completed.
struct StreamOrigin {
  CUevent Event = nullptr;
  TracePoint Host;
};

// Made when recording starts and never destroyed: the exit handler reads
// it after the runtime's statics may have gone.
struct Recorder {
  std::string ChromeFile; // empty: MSTAGE_STATS only
  bool Stats = false;
  pid_t Owner = getpid(); // a forked child writes nothing
  TracePoint Origin = TraceClock::now();

  std::mutex Lock; // what follows
  bool Closed = false;
  std::vector<TraceSpan> Spans;
  std::vector<TraceTrack> Tracks;
  DenseSet<uint64_t> StreamTracks;
  std::vector<std::unique_ptr<PendingGpu>> Pending;
  DenseMap<uint64_t, StreamOrigin> Origins;

  int64_t ns(TracePoint T) const {
    return std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::nanoseconds>(T - Origin)
               .count());
  }

  // Adds S, and its track when it is the first span there.
  void add(TraceSpan S, bool NewThread) {
    std::lock_guard<std::mutex> G(Lock);
    if (Closed)
      return;
    if (NewThread)
      Tracks.push_back({false, S.Track, threadName(S.Track)});
    if (S.Stream && StreamTracks.insert(S.Track).second)
      Tracks.push_back({true, S.Track, "stream " + std::to_string(S.Track)});
    Spans.push_back(std::move(S));
  }

  // "main thread", "llvm-worker-0 1234" (a compile pool's worker), or
  // "thread 1234": a thread that was not named has the program's name.
  static std::string threadName(uint64_t Tid) {
    if (Tid == uint64_t(getpid()))
      return "main thread";
    SmallString<64> Name;
    get_thread_name(Name);
    StringRef Program(program_invocation_short_name);
    if (Name.empty() || Program.starts_with(Name))
      Name = "thread";
    return (Name + " " + Twine(Tid)).str();
  }
};

Recorder *TheRecorder = nullptr;
// Set when the compile pool is made (setStopCompilesAtExit).
std::atomic<void (*)()> StopCompiles{nullptr};
thread_local KernelScope *CurrentScope = nullptr;
thread_local bool ThreadSeen = false;

// The spans named after the thread's kernel; copies are not.
bool ofKernel(SpanKind Kind) { return Kind < SpanKind::CopyToDevice; }

// "memory cache hit main::kernel_L9@f.cpp:9:12 {line 10: 256}",
// "copy to device 4096 B".
std::string spanName(SpanKind Kind, const char *Outcome, uint64_t Bytes,
                     const KernelScope *Scope) {
  std::string Name = spanKindName(Kind);
  if (Outcome && (Kind == SpanKind::MemoryCache || Kind == SpanKind::DiskCache))
    Name += std::string(" ") + Outcome;
  if (Bytes)
    Name += " " + std::to_string(Bytes) + " B";
  if (Scope && ofKernel(Kind))
    Name += " " + Scope->label();
  return Name;
}

void finishRecording();

} // namespace

const char *spanKindName(SpanKind Kind) {
  switch (Kind) {
  case SpanKind::Launch:
    return "launch";
  case SpanKind::Evaluate:
    return "evaluate";
  case SpanKind::MemoryCache:
    return "memory cache";
  case SpanKind::DiskCache:
    return "disk cache";
  case SpanKind::Compile:
    return "compile";
  case SpanKind::Optimize:
    return "optimize";
  case SpanKind::Codegen:
    return "codegen";
  case SpanKind::Ptxas:
    return "ptxas";
  case SpanKind::Load:
    return "load module";
  case SpanKind::ReadIr:
    return "read IR";
  case SpanKind::Kernel:
    return "kernel";
  case SpanKind::CopyToDevice:
    return "copy to device";
  case SpanKind::CopyToHost:
    return "copy to host";
  case SpanKind::CopyOnDevice:
    return "copy on device";
  }
  return "span";
}

void setStopCompilesAtExit(void (*Stop)()) {
  StopCompiles.store(Stop, std::memory_order_release);
}

bool startRecording() {
  const TraceSetting &Trace = traceSetting();
  bool Stats = statsSetting().Value;
  if (Trace.ChromeFile.empty() && !Stats)
    return false;
  TheRecorder = new Recorder;
  TheRecorder->ChromeFile = Trace.ChromeFile;
  TheRecorder->Stats = Stats;
  // Registered after the back end was made (the hooks run after it), so
  // that the handler runs before the back end and the driver go.
  std::atexit(finishRecording);
  return true;
}

void recordHostSpan(SpanKind Kind, TracePoint Start, TracePoint End,
                    const char *Outcome, uint64_t Bytes) {
  assert(TheRecorder && "spans are recorded only after startRecording()");
  Recorder &R = *TheRecorder;
  const KernelScope *Scope = CurrentScope;
  TraceSpan S;
  S.Track = get_threadid();
  S.StartNs = R.ns(Start);
  S.EndNs = std::max(S.StartNs, R.ns(End));
  S.Category = spanKindName(Kind);
  S.Name = spanName(Kind, Outcome, Bytes, Scope);
  if (Scope && ofKernel(Kind)) {
    S.Kernel = Scope->kernelName();
    S.Staged = Scope->stagedText();
  }
  S.Outcome = Outcome;
  S.Bytes = Bytes;
  bool NewThread = !ThreadSeen;
  ThreadSeen = true;
  R.add(std::move(S), NewThread);
}

std::string KernelScope::label() const {
  return Staged.empty() ? Kernel->PrettyName
                        : Kernel->PrettyName + " " + Staged;
}

void KernelScope::enter(const mstage::KernelBlob &K,
                        ArrayRef<StringRef> StagedValues, bool IsLaunch) {
  Kernel = &K;
  Launch = IsLaunch;
  if (!StagedValues.empty())
    Staged = stagedValuesText(K, StagedValues);
  Outer = CurrentScope;
  CurrentScope = this;
  Start = TraceClock::now();
}

void KernelScope::leave() {
  assert(CurrentScope == this && "kernel scopes nest");
  if (Launch)
    recordHostSpan(SpanKind::Launch, Start, TraceClock::now(), Cache);
  CurrentScope = Outer;
}

void noteStaged(const mstage::KernelBlob &Kernel,
                ArrayRef<StringRef> StagedValues, TracePoint Start) {
  if (Start == TracePoint())
    return;
  if (CurrentScope && !StagedValues.empty())
    CurrentScope->Staged = stagedValuesText(Kernel, StagedValues);
  recordHostSpan(SpanKind::Evaluate, Start, TraceClock::now());
}

void noteMemoryLookup(TracePoint Start, bool Hit) {
  if (Start != TracePoint())
    recordHostSpan(SpanKind::MemoryCache, Start, TraceClock::now(),
                   Hit ? "hit" : "miss");
}

static TracePoint after(TracePoint Start, double Ms) {
  return Start + std::chrono::duration_cast<TraceClock::duration>(
                     std::chrono::duration<double, std::milli>(Ms));
}

void noteJit(TracePoint OptimizeStart, double OptimizeMs, double ReadIrMs,
             TracePoint CodegenStart, double CodegenMs) {
  if (!recording())
    return;
  recordHostSpan(SpanKind::Optimize, OptimizeStart,
                 after(OptimizeStart, OptimizeMs));
  recordHostSpan(SpanKind::ReadIr, OptimizeStart,
                 after(OptimizeStart, std::min(ReadIrMs, OptimizeMs)));
  recordHostSpan(SpanKind::Codegen, CodegenStart,
                 after(CodegenStart, CodegenMs));
}

// What making the code of a launch cost, when it was made.
static double compileMs(const LaunchTimes &T) {
  switch (T.Source) {
  case CodeSource::Disk:
  case CodeSource::Compiled:
  case CodeSource::Uncached:
  case CodeSource::Tier0: // nothing when a launch ran it
    return T.Optimize + T.Codegen + T.Load;
  case CodeSource::Memory:
  case CodeSource::Generic:
    return 0;
  }
  return 0;
}

void noteLaunchCode(const mstage::KernelBlob &Kernel, std::string_view Key,
                    const LaunchTimes &Times) {
  if (!recording())
    return;
  if (CurrentScope)
    CurrentScope->Cache = codeSourceName(Times.Source);
  if (!TheRecorder->Stats)
    return;
  statsLaunch(Kernel.PrettyName, codeSourceName(Times.Source),
              specializationId(Key));
  if (double Ms = compileMs(Times))
    statsCompileMs(Kernel.PrettyName, Ms);
}

void noteCompileDone(const mstage::KernelBlob &Kernel,
                     const LaunchTimes &Times) {
  if (!recording() || !TheRecorder->Stats)
    return;
  double Ms = compileMs(Times);
  if (Times.Source == CodeSource::Tier0)
    statsTier0Compile(Kernel.PrettyName, Ms);
  if (Ms)
    statsCompileMs(Kernel.PrettyName, Ms);
}

static TraceSpan streamSpan(SpanKind Kind, uint64_t StreamId, uint64_t Bytes,
                            const KernelScope *Scope) {
  TraceSpan S;
  S.Stream = true;
  S.Track = StreamId;
  S.Category = spanKindName(Kind);
  S.Name = spanName(Kind, nullptr, Bytes, Scope);
  if (Scope && ofKernel(Kind)) {
    S.Kernel = Scope->kernelName();
    S.Staged = Scope->stagedText();
  }
  S.Bytes = Bytes;
  return S;
}

void StreamSpan::record() {
  Recorder &R = *TheRecorder;
  TracePoint End = TraceClock::now();
  TraceSpan S = streamSpan(Kind, StreamId, Bytes, CurrentScope);
  S.StartNs = R.ns(Start);
  S.EndNs = std::max(S.StartNs, R.ns(End));
  if (R.Stats && Kind == SpanKind::Kernel && !S.Kernel.empty()) {
    statsLaunch(S.Kernel, nullptr, 0);
    statsKernelMs(
        S.Kernel,
        std::chrono::duration<double, std::milli>(End - Start).count());
  }
  R.add(std::move(S), false);
}

// The origin of the stream's events: made at its first traced work, which
// waits once for what the stream had before.
static const StreamOrigin *originOf(CudaDriver &Driver, CUstream Stream,
                                    uint64_t StreamId) {
  Recorder &R = *TheRecorder;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = R.Origins.find(StreamId);
    if (It != R.Origins.end())
      return &It->second;
  }
  StreamOrigin O;
  if (!succeeded(Driver.createEvent(&O.Event)))
    return nullptr;
  // Another thread's capture in the global mode would refuse the wait.
  CUstreamCaptureMode Mode =
      Driver.relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  bool Done = succeeded(Driver.recordEvent(O.Event, Stream)) &&
              succeeded(Driver.synchronizeEvent(O.Event));
  Driver.relaxCapture(Mode);
  if (!Done) {
    consumeError(Driver.destroyEvent(O.Event));
    return nullptr;
  }
  O.Host = TraceClock::now();
  std::lock_guard<std::mutex> G(R.Lock);
  auto [It, New] = R.Origins.try_emplace(StreamId, O);
  if (!New)
    consumeError(Driver.destroyEvent(O.Event));
  return &It->second;
}

void GpuSpan::begin(SpanKind Kind, CudaDriver &Driver, CUstream Stream,
                    uint64_t StreamId, uint64_t Bytes) {
  if (!originOf(Driver, Stream, StreamId))
    return; // not timed: the driver said why elsewhere, or will
  auto P = std::make_unique<PendingGpu>();
  P->Driver = &Driver;
  P->Stream = Stream;
  P->StreamId = StreamId;
  P->Bytes = Bytes;
  P->Kind = Kind;
  const KernelScope *Scope = CurrentScope;
  P->Name = spanName(Kind, nullptr, Bytes, Scope);
  if (Scope && ofKernel(Kind)) {
    P->Kernel = Scope->kernelName();
    P->Staged = Scope->stagedText();
  }
  if (!succeeded(Driver.createEvent(&P->Start)) ||
      !succeeded(Driver.recordEvent(P->Start, Stream)))
    return;
  Started = P.release();
}

void GpuSpan::end() {
  assert(Started && "end() follows a start() that succeeded");
  std::unique_ptr<PendingGpu> P(static_cast<PendingGpu *>(Started));
  Started = nullptr;
  if (!succeeded(P->Driver->createEvent(&P->End)) ||
      !succeeded(P->Driver->recordEvent(P->End, P->Stream)))
    return;
  Recorder &R = *TheRecorder;
  std::lock_guard<std::mutex> G(R.Lock);
  if (!R.Closed)
    R.Pending.push_back(std::move(P));
}

void GpuSpan::ranGenericCode() {
  if (Started)
    static_cast<PendingGpu *>(Started)->Generic = true;
}

void GpuSpan::drop() {
  delete static_cast<PendingGpu *>(Started);
  Started = nullptr;
}

// Reads back the pending spans whose work has completed; with Wait, waits
// for all of them.
static void collect(bool Wait) {
  assert(TheRecorder && "GPU spans are read back only while recording");
  Recorder &R = *TheRecorder;
  std::vector<std::unique_ptr<PendingGpu>> Done;
  DenseMap<uint64_t, StreamOrigin> Origins;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    for (auto &P : R.Pending) {
      CUstreamCaptureMode Mode =
          P->Driver->relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
      bool Complete = Wait ? succeeded(P->Driver->synchronizeEvent(P->End))
                           : P->Driver->queryEvent(P->End) == CUDA_SUCCESS;
      P->Driver->relaxCapture(Mode);
      if (Complete)
        Done.push_back(std::move(P));
    }
    llvm::erase_if(R.Pending, [](const auto &P) { return !P; });
    Origins = R.Origins;
  }
  for (auto &P : Done) {
    const StreamOrigin &O = Origins[P->StreamId];
    float Before = 0, Length = 0;
    if (!succeeded(P->Driver->elapsedMs(&Before, O.Event, P->Start)) ||
        !succeeded(P->Driver->elapsedMs(&Length, P->Start, P->End)))
      continue;
    TraceSpan S;
    S.Stream = true;
    S.Track = P->StreamId;
    S.Category = spanKindName(P->Kind);
    S.Name = std::move(P->Name);
    S.Kernel = P->Kernel;
    S.Staged = std::move(P->Staged);
    S.Bytes = P->Bytes;
    S.StartNs = R.ns(after(O.Host, Before));
    S.EndNs = S.StartNs + int64_t(double(Length) * 1e6);
    if (R.Stats && P->Kind == SpanKind::Kernel && !P->Kernel.empty())
      statsKernelMs(P->Kernel, Length, P->Generic);
    R.add(std::move(S), false);
  }
}

void collectGpuSpans() {
  if (recording())
    collect(/*Wait=*/false);
}

namespace {

// At exit, after the compile pool has finished (its spans are the last of
// its threads): the GPU's spans are read back, the trace written and the
// table printed.
void finishRecording() {
  Recorder &R = *TheRecorder;
  if (getpid() != R.Owner)
    return;
  if (void (*Stop)() = StopCompiles.load(std::memory_order_acquire))
    Stop();
  collect(/*Wait=*/true);
  std::vector<TraceSpan> Spans;
  std::vector<TraceTrack> Tracks;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    R.Closed = true;
    Spans = std::move(R.Spans);
    Tracks = std::move(R.Tracks);
  }
  if (!R.ChromeFile.empty())
    if (Error E = writeChromeTrace(R.ChromeFile, std::move(Spans), Tracks))
      warn("cannot write the trace to '" + R.ChromeFile +
           "': " + toString(std::move(E)));
  if (R.Stats)
    printStats(errs());
}

} // namespace

} // namespace mstage::rt
