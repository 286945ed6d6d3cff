//===- JitPolicy.cpp - Whether a launch waits for its specialization ------===//
#include "launch/JitPolicy.h"
#include "core/Backend.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/Trace.h"
#include "support/Settings.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

using namespace llvm;

namespace mstage::rt {

// The estimates' constants, measured (docs/performance.md, "The JIT's launch
// policy"): a compile's fixed cost and its cost per IR instruction (LLVM's
// optimization and NVPTX code generation, this machine's), ptxas and the
// module load of a small kernel on the GPU, and the thread-instructions an
// H100 or H200 runs per millisecond on memory-bound kernels.
static constexpr double CompileFixedMs = 10;
static constexpr double CompileMsPerInstruction = 0.02;
static constexpr double LoadFixedMs = 15;
static constexpr double ThreadInstructionsPerMs = 4e9;

namespace {

// What the policy knows of one kernel.
struct KernelState {
  // The timing of its first generic launch on the GPU.
  std::mutex Lock;
  enum class Timer { Untimed, Begun, Pending, Done } Timing = Timer::Untimed;
  CudaDriver *D = nullptr;
  CUstream Stream = nullptr;
  CUevent Start = nullptr, End = nullptr;
  uint64_t Threads = 0;
  double MsPerThread = -1; // measured; -1: not (yet)
};

// The compiles measured so far against their estimates.
struct CompileScale {
  std::mutex Lock;
  double MeasuredMs = 0, EstimatedMs = 0;

  double factor() {
    std::lock_guard<std::mutex> G(Lock);
    return EstimatedMs > 0 ? MeasuredMs / EstimatedMs : 1;
  }
};

class Policy {
public:
  KernelState &stateOf(const RegisteredKernel &K) {
    std::lock_guard<std::mutex> G(Lock);
    std::unique_ptr<KernelState> &S = States[&K];
    if (!S)
      S = std::make_unique<KernelState>();
    return *S;
  }
  KernelState *findState(const RegisteredKernel &K) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = States.find(&K);
    return It == States.end() ? nullptr : It->second.get();
  }
  CompileScale Scale;

private:
  std::mutex Lock;
  DenseMap<const RegisteredKernel *, std::unique_ptr<KernelState>> States;
};

} // namespace

// Never destroyed: a compile may finish during the process's exit.
static Policy &policy() {
  static Policy *P = new Policy;
  return *P;
}

static uint64_t threadsOf(const mstage_launch_config &C) {
  return uint64_t(C.grid[0]) * C.grid[1] * C.grid[2] * C.block[0] * C.block[1] *
         C.block[2];
}

// The compile's estimate before the process measured any.
static double unscaledCompileMs(const KernelWork &W) {
  return CompileFixedMs + CompileMsPerInstruction * double(W.Instructions) +
         LoadFixedMs;
}

static void destroyEvents(KernelState &S) {
  llvm::consumeError(S.D->destroyEvent(S.Start));
  llvm::consumeError(S.D->destroyEvent(S.End));
  S.Start = S.End = nullptr;
}

// Reads the first generic launch's time once its end event is reached.
static void readTiming(KernelState &S) {
  std::lock_guard<std::mutex> G(S.Lock);
  if (S.Timing != KernelState::Timer::Pending)
    return;
  CUresult Status = S.D->queryEvent(S.End);
  if (Status == CUDA_ERROR_NOT_READY)
    return;
  float Ms = 0;
  if (Status == CUDA_SUCCESS) {
    if (llvm::Error E = S.D->elapsedMs(&Ms, S.Start, S.End))
      consumeError(std::move(E));
    else if (S.Threads)
      S.MsPerThread = double(Ms) / double(S.Threads);
  }
  destroyEvents(S);
  S.Timing = KernelState::Timer::Done;
}

static void traceDecision(const LaunchRequest &L, const KernelWork &W,
                          bool Wait, double CompileMs, double RunMs,
                          bool Measured, uint64_t Threads) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << "mstage: trace: jit: kernel '" << L.K->Blob.PrettyName << "' "
     << (Wait ? "waits for its specialization"
              : "runs its generic code while its specialization compiles")
     << format(": estimated compile %.3f ms %s %.3f ms", CompileMs,
               Wait ? "<" : ">=", RunMs * (1 - 1 / SpecializedSpeedup))
     << " that the generic code would lose of its "
     << (Measured ? "measured" : "estimated") << format(" run %.3f ms", RunMs)
     << " (" << Threads << " threads";
  if (Measured)
    OS << ", timed at its first generic launch)";
  else
    OS << format(" x %.0f instructions, %llu in the kernel)",
                 W.ThreadInstructions, (unsigned long long)W.Instructions);
  OS << "\n";
  errs() << Line;
}

bool waitsForSpecialization(const LaunchRequest &L) {
  assert(jitSettings().Policy == JitSettings::Mode::Auto &&
         "only MSTAGE_JIT=auto chooses");
  Policy &P = policy();
  KernelState &S = P.stateOf(*L.K);
  const KernelWork *W = &L.K->Blob.Work;
  readTiming(S);
  uint64_t Threads = threadsOf(L.Config);
  double CompileMs = unscaledCompileMs(*W) * P.Scale.factor();
  double MsPerThread;
  {
    std::lock_guard<std::mutex> G(S.Lock);
    MsPerThread = S.MsPerThread;
  }
  bool Measured = MsPerThread >= 0;
  double RunMs = Measured ? MsPerThread * double(Threads)
                          : double(Threads) * W->ThreadInstructions /
                                ThreadInstructionsPerMs;
  bool Wait = CompileMs < RunMs * (1 - 1 / SpecializedSpeedup);
  if (traceEnabled())
    traceDecision(L, *W, Wait, CompileMs, RunMs, Measured, Threads);
  return Wait;
}

void noteCompileMs(const RegisteredKernel &K, double Ms) {
  if (jitSettings().Policy != JitSettings::Mode::Auto)
    return;
  Policy &P = policy();
  KernelState *S = P.findState(K);
  if (!S) // not weighed by the policy: nothing to compare with
    return;
  std::lock_guard<std::mutex> G(P.Scale.Lock);
  P.Scale.MeasuredMs += Ms;
  P.Scale.EstimatedMs += unscaledCompileMs(K.Blob.Work);
}

void GenericRunTimer::begin(const LaunchRequest &L) {
  CudaDriver *D = L.S->driver();
  if (!D || jitSettings().Policy != JitSettings::Mode::Auto)
    return;
  KernelState &S = policy().stateOf(*L.K);
  std::lock_guard<std::mutex> G(S.Lock);
  if (S.Timing != KernelState::Timer::Untimed)
    return;
  S.D = D;
  if (llvm::Error E = D->createEvent(&S.Start)) {
    consumeError(std::move(E));
    S.Timing = KernelState::Timer::Done; // not timed: estimates only
    return;
  }
  if (llvm::Error E = D->createEvent(&S.End)) {
    consumeError(std::move(E));
    consumeError(D->destroyEvent(S.Start));
    S.Timing = KernelState::Timer::Done;
    return;
  }
  if (llvm::Error E = D->recordEvent(S.Start, L.S->handle())) {
    consumeError(std::move(E));
    destroyEvents(S);
    S.Timing = KernelState::Timer::Done;
    return;
  }
  S.Stream = L.S->handle();
  S.Threads = threadsOf(L.Config);
  S.Timing = KernelState::Timer::Begun;
  Timing = &S;
}

void GenericRunTimer::end() {
  KernelState &S = *static_cast<KernelState *>(Timing);
  Timing = nullptr;
  std::lock_guard<std::mutex> G(S.Lock);
  if (llvm::Error E = S.D->recordEvent(S.End, S.Stream)) {
    consumeError(std::move(E));
    destroyEvents(S);
    S.Timing = KernelState::Timer::Done;
    return;
  }
  S.Timing = KernelState::Timer::Pending;
}

void GenericRunTimer::cancel() {
  // The launch failed: the next generic launch is timed instead.
  KernelState &S = *static_cast<KernelState *>(Timing);
  std::lock_guard<std::mutex> G(S.Lock);
  destroyEvents(S);
  S.Timing = KernelState::Timer::Untimed;
}

} // namespace mstage::rt
