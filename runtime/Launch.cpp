//===- Launch.cpp - mstage_rt_launch: find or make the code, then launch ===//
#include "AotImage.h"
#include "CaptureInMemory.h"
#include "CodeForLaunch.h"
#include "LaunchConfig.h"
#include "StageValueText.h"
#include "cache/CacheKey.h"
#include "cache/CubinWriter.h"
#include "cache/DiskCache.h"
#include "cache/MemoryCache.h"
#include "core/AllocationMap.h"
#include "core/Backend.h"
#include "core/GenericCode.h"
#include "core/HotTls.h"
#include "core/KernelRegistry.h"
#include "core/LaunchFactsOf.h"
#include "core/LaunchLimits.h"
#include "core/ParamsInMemory.h"
#include "core/RuntimeError.h"
#include "core/StagedLaunch.h"
#include "core/Stream.h"
#include "cpu/CpuBackend.h"
#include "cpu/StageCheck.h"
#include "cuda/CudaDriver.h"
#include "inspect/Dump.h"
#include "inspect/Stats.h"
#include "inspect/Trace.h"
#include "inspect/TraceEvents.h"
#include "jit/CompilePool.h"
#include "jit/JitCompiler.h"
#include "support/Settings.h"

#include "mstage/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string_view>

using namespace mstage::rt;
using mstage::bytesInMemory;
using mstage::kernelParamLimit;
using mstage::LaunchConfig;
using mstage::paramsInMemory;

namespace {

constexpr RuntimeFailure::Join Clause = RuntimeFailure::Join::Clause;

// Fails the entry point with E, naming K.
int failFor(const RegisteredKernel &K, llvm::Error E) {
  return failWith(withKernel(std::move(E), K));
}

// MSTAGE_BOUNDS_CHECK is a macro (mstage/bounds_check.hpp), which reads
// like one of the MSTAGE_* variables: set in the environment, it is said once
// that it does nothing there.
void warnAboutBoundsCheckVariable() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    if (boundsCheckVariableSet())
      llvm::errs() << "mstage: MSTAGE_BOUNDS_CHECK is set in the environment, "
                      "where it changes nothing: bounds checks are chosen "
                      "when the program is compiled (mstage++ "
                      "-DMSTAGE_BOUNDS_CHECK=1, or 0)\n";
  });
}

// What the JIT's output depends on besides the kernel and the launch (whose
// flags carry fast math).
// Never destroyed, as every static that a background compile reads: a
// compile may still run while exit() destroys statics made after the
// compile pool (CompilePool.h).
const std::string &jitOptionsText() {
  static const std::string &S =
      *new std::string("llvm-args=" + llvmArgsSetting());
  return S;
}

// Whether a launch that misses queues its compile (MSTAGE_JIT=async). Not in
// PTX-only mode unless asked for: nothing runs there, so there is nothing to
// overlap, and a short program would end before its compiles (its PTX never
// dumped or cached). Not once the pool is closed at exit: a launch from a
// static destructor compiles on its own thread.
bool compilesInBackground(const Backend &B) {
  const JitSettings &Jit = jitSettings();
  return Jit.Async && (B.Kind != BackendKind::PtxOnly || Jit.Chosen) &&
         !compilePoolClosed();
}

// Launch extents a GPU cannot take are rejected before compiling, on every
// back end (LaunchLimits.h).
llvm::Error checkConfig(const mstage_launch_config &C, const Backend &B) {
  if (C.flags & ~MSTAGE_LAUNCH_FAST_MATH)
    return failure("has unknown launch flags " + std::to_string(C.flags) +
                       "; rebuild the program with one mstage version",
                   Clause);
  for (int I = 0; I < 3; ++I)
    if (C.grid[I] == 0 || C.block[I] == 0)
      return failure(
          "has an empty launch configuration (grid " +
              std::to_string(C.grid[0]) + "x" + std::to_string(C.grid[1]) +
              "x" + std::to_string(C.grid[2]) + ", block " +
              std::to_string(C.block[0]) + "x" + std::to_string(C.block[1]) +
              "x" + std::to_string(C.block[2]) + ")",
          Clause);
  return checkLaunchShape(C, launchLimits(B));
}

double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

// The JSON that MSTAGE_DUMP writes beside a specialization's code.
std::string dumpSidecar(const RegisteredKernel &K, const Backend &B,
                        const LaunchConfig &C, const StagedLaunch &Staged,
                        const CacheKey &Key, const LaunchTimes &Times) {
  llvm::json::Array Sites;
  for (size_t I = 0; I < Staged.Values.size(); ++I) {
    const mstage::StageSite &S = K.Blob.StageSites[I];
    Sites.push_back(llvm::json::Object{
        {"site", int64_t(I)},
        {"line", int64_t(S.Line)},
        {"column", int64_t(S.Column)},
        {"type", mstage::stageTypeName(S)},
        {"value", mstage::formatStageValue(S, Staged.Values[I])}});
  }
  auto Extents = [](const uint32_t *E) {
    return llvm::json::Array{int64_t(E[0]), int64_t(E[1]), int64_t(E[2])};
  };
  llvm::json::Object Doc{
      {"kernel", K.Blob.Name},
      {"name", K.Blob.PrettyName},
      {"location", K.Blob.Location},
      {"arch", B.Arch},
      {"fast_math", C.fastMath()},
      {"cache_key", Key.hex()},
      {"launch", llvm::json::Object{{"grid", Extents(C.grid)},
                                    {"block", Extents(C.block)},
                                    {"shared_bytes", int64_t(C.shared_bytes)}}},
      {"staged", std::move(Sites)},
      {"views", mstage::formatLaunchFacts(Staged.Facts)},
      {"cache", codeSourceName(Times.Source)},
      {"compiled", Times.Background ? "background" : "foreground"},
      {"code", Times.FromCubin ? "cubin" : "ptx"},
      {"times_ms", llvm::json::Object{{"evaluate", Times.Evaluate},
                                      {"optimize", Times.Optimize},
                                      {"codegen", Times.Codegen},
                                      {"load", Times.Load}}}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return Text;
}

// Loads Code into Out: the cubin when there is one and this driver takes
// it, else the PTX. A cubin the driver refuses (from a toolkit newer than
// the driver) is reported once; cubins are not tried again.
// A fault of a kernel leaves the context unusable: every later call fails
// with the fault's error, which the next synchronizing call reports.
bool contextLost(CUresult Code) {
  switch (Code) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return true;
  default:
    return false;
  }
}

// Set by loadModule on this thread: its load failed because of such a fault.
thread_local bool LoadFoundContextLost = false;

llvm::Error loadModule(const RegisteredKernel &K, const Backend &B,
                       CudaDriver &D, const std::string &PTX,
                       const std::string &Cubin, CompiledKernel &Out) {
  static std::atomic<bool> CubinsRefused{false};
  HostSpan Span(SpanKind::Load);
  LoadFoundContextLost = false;
  Out.Device = D.index();
  // The code is compiled for B.Arch; with several devices, one of another
  // architecture JIT-compiles the PTX (a cubin it refuses would turn cubins
  // off for the others too).
  if (!Cubin.empty() && (D.arch() == B.Arch || CudaDriver::count() == 1) &&
      !CubinsRefused.load(std::memory_order_relaxed)) {
    llvm::Error E = D.loadModuleFromCubin(Cubin, &Out.Module);
    if (!E) {
      Out.FromCubin = true;
    } else if (contextLost(cudaErrorCode(E))) {
      LoadFoundContextLost = true;
      return withKernel(std::move(E), K);
    } else {
      std::string Why = failureMessage(std::move(E));
      static std::once_flag Warned;
      std::call_once(Warned, [&] {
        llvm::errs() << kernelMessage(K.Blob.PrettyName,
                                      "the cubin from ptxas does not load: " +
                                          Why)
                     << "\nmstage: kernels are loaded as PTX from now on\n";
      });
      CubinsRefused = true;
    }
  }
  llvm::Error E = Out.Module ? llvm::Error::success()
                             : D.loadModuleFromPtx(PTX, &Out.Module);
  if (!E)
    E = D.getFunction(Out.Module, K.Blob.Name, &Out.Function);
  if (E) {
    LoadFoundContextLost = contextLost(cudaErrorCode(E));
    return withKernel(std::move(E), K);
  }
  return llvm::Error::success();
}

// The driver's PTX JIT compiles one module at a time in a process (H200,
// 16 threads loading PTX at once: each waited for all before it, 16 to 283
// ms). A compile that holds the claim loads its PTX through the driver;
// one that does not, while another does, has ptxas make a cubin (ptxas
// runs as processes, side by side), whose load takes under a millisecond.
class DriverJitClaim {
public:
  explicit DriverJitClaim(bool OnGpu) {
    if (!OnGpu || !ptxasUsable())
      return; // the driver's JIT is the only way
    Counted = InUse.fetch_add(1, std::memory_order_acq_rel) == 0;
    if (!Counted)
      InUse.fetch_sub(1, std::memory_order_acq_rel);
    Held = Counted;
  }
  ~DriverJitClaim() {
    if (Counted)
      InUse.fetch_sub(1, std::memory_order_acq_rel);
  }
  bool held() const { return Held; }

private:
  static inline std::atomic<unsigned> InUse{0};
  bool Held = true, Counted = false;
};

// Makes the code of one specialization: from the disk cache when it has
// it, else with the JIT (and then into the disk cache), and loads it on
// device D (null off the GPU).
llvm::Error makeCode(const RegisteredKernel &K, const Backend &B, CudaDriver *D,
                     const LaunchConfig &Config, const StagedLaunch &Staged,
                     CompiledKernel &Out, LaunchTimes &Times) {
  const DumpSettings &Dump = dumpSettings();
  const auto &BitcodeHash = K.Specializations->bitcodeHash(
      std::string_view(K.Blob.Bitcode.data(), K.Blob.Bitcode.size()));
  KeyInputs In;
  In.BitcodeHashLo = BitcodeHash[0];
  In.BitcodeHashHi = BitcodeHash[1];
  In.Config = Config;
  In.StagedBytes = Staged.stagedBytes();
  In.FactBytes = Staged.factBytes();
  In.Target = B.Arch; // the same entry serves GPU and PTX-only runs
  In.JitOptionsText = jitOptionsText();
  CacheKey Key = makeCacheKey(In);
  uint64_t ShortHash;
  std::memcpy(&ShortHash, Key.Bytes.data(), sizeof(ShortHash));

  auto T0 = std::chrono::steady_clock::now();
  CachedCode Code;
  // The disk cache keeps no IR, so MSTAGE_DUMP=ir compiles.
  std::optional<CachedCode> Hit;
  // Held while this process compiles Key's entry: other processes wait for
  // it rather than compile it too (DiskCache.h).
  CacheLock Lock;
  std::optional<DriverJitClaim> DriverJit;
  if (!Dump.IR) {
    HostSpan Lookup(SpanKind::DiskCache);
    Hit = loadFromDiskCacheOrLock(Key, Lock);
    Lookup.outcome(Hit ? "hit" : "miss");
  }
  if (Hit) {
    Times.Source = CodeSource::Disk;
    Code = std::move(*Hit);
  } else {
    HostSpan Compile(SpanKind::Compile);
    Times.Source = CodeSource::Compiled;
    JitOptions Opts;
    Opts.Arch = B.Arch;
    Specialization Spec;
    Spec.StagedValues = Staged.Values;
    Spec.Facts = Staged.Facts;
    Spec.Config = Config;
    auto Result = compileKernel(K.Blob, Spec, Opts, Dump.IR);
    if (!Result)
      return Result.takeError();
    Times.Optimize = Result->OptimizeMs;
    Times.Codegen = Result->CodegenMs;
    noteJit(Result->OptimizeStart, Result->OptimizeMs, Result->CodegenStart,
            Result->CodegenMs);
    if (Dump.IR)
      dumpFile(K.Blob.Name, ShortHash, "ll", Result->OptimizedIR);
    Code.PTX = std::move(Result->PTX);
    T0 = std::chrono::steady_clock::now();
    DriverJit.emplace(B.Kind == BackendKind::Gpu); // held until the load
    bool ToDisk =
        cacheSettings().Mode == CacheMode::Disk && !cacheSettings().ReadOnly;
    if (B.Kind == BackendKind::Gpu) {
      if (!DriverJit->held()) {
        // Another compile is in the driver's JIT, which takes one PTX at a
        // time: ptxas, a process of its own, assembles this one meanwhile.
        auto Cubin = assembleWithPtxas(K.Blob.PrettyName, Code.PTX, B.Arch);
        if (!Cubin)
          return withKernel(Cubin.takeError(), K);
        Code.Cubin = std::move(*Cubin); // "" without ptxas: the driver's JIT
      }
      // Else the driver JIT-compiles the PTX for this launch; the cubin for
      // the disk cache is made meanwhile (CubinWriter.h).
      if (ToDisk && Code.Cubin.empty())
        storeWithCubinLater(Key, K.Blob.PrettyName, Code.PTX, B.Arch);
      else if (ToDisk)
        storeInDiskCache(Key, Code);
    } else {
      // Nothing to load: ptxas checks the PTX and makes the entry whole.
      // PTX that ptxas rejects is this kernel's error, and is not cached.
      auto Cubin = assembleWithPtxas(K.Blob.PrettyName, Code.PTX, B.Arch);
      if (!Cubin)
        return withKernel(Cubin.takeError(), K);
      Code.Cubin = std::move(*Cubin);
      if (ToDisk)
        storeInDiskCache(Key, Code);
    }
    Lock.release(); // the entry is stored: waiting processes read it
  }
  if (B.Kind == BackendKind::Gpu) {
    if (llvm::Error E = loadModule(K, B, *D, Code.PTX, Code.Cubin, Out))
      return E;
    // Kept for the other devices, which load it when they first launch it.
    if (CudaDriver::count() > 1) {
      Out.Others = std::make_shared<OtherDevices>();
      Out.Others->PTX = Code.PTX;
      Out.Others->Cubin = Code.Cubin;
    }
  } else {
    Out.FromCubin = !Code.Cubin.empty();
  }
  Times.Load = msSince(T0);
  Times.FromCubin = Out.FromCubin;
  // After the timing, which the dumps would distort.
  if (Dump.PTX)
    dumpFile(K.Blob.Name, ShortHash, "ptx", Code.PTX);
  if (Dump.SASS)
    dumpSass(K.Blob.Name, ShortHash, Code.PTX, Code.Cubin, B.Arch);
  if (Dump.IR || Dump.PTX || Dump.SASS)
    dumpFile(K.Blob.Name, ShortHash, "json",
             dumpSidecar(K, B, Config, Staged, Key, Times));
  return llvm::Error::success();
}

// Why a launch whose parameters InMemory are copied to device memory at
// each launch cannot be captured into a graph (the copy is from the
// caller's memory, gone when a replay runs).
std::string notCapturable(const std::string &Arch, const uint32_t *ParamSizes,
                          uint32_t NumParams, uint64_t InMemory) {
  return "has " + std::string(InMemory == 1 ? "a capture" : "parameters") +
         " of " +
         std::to_string(
             bytesInMemory(llvm::ArrayRef(ParamSizes, NumParams), InMemory)) +
         " bytes, over " + Arch + "'s kernel-parameter limit of " +
         std::to_string(kernelParamLimit(Arch)) +
         " bytes: each launch copies it to device memory, which a stream "
         "capture cannot record; launch it outside the capture, or pass the "
         "data in device memory (a view)";
}

// The kernel whose host entry is HostEntry, when it can run here.
llvm::Expected<const RegisteredKernel *> findRunnable(const void *HostEntry) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  if (!K)
    return failure("cannot launch a kernel: " + Why);
  if (backend().Kind == BackendKind::Unavailable)
    return withKernel(failure("cannot run: " + backend().Reason, Clause), *K);
  return K;
}

// What a launch and a compile ahead (mstage_rt_compile) check first: the
// kernel, its parameters, its launch configuration (into Effective, with
// MSTAGE_FAST_MATH applied) and the settings that fail launches.
llvm::Error checkLaunch(const void *HostEntry, uint32_t NumParams,
                        const mstage_launch_config &Config,
                        const RegisteredKernel *&K, LaunchConfig &Effective) {
  llvm::Expected<const RegisteredKernel *> Found = findRunnable(HostEntry);
  if (!Found)
    return Found.takeError();
  K = *Found;
  const Backend &B = backend();
  if (NumParams != K->Blob.NumParams)
    return withKernel(failure("was launched with " + std::to_string(NumParams) +
                                  " parameters but compiled for " +
                                  std::to_string(K->Blob.NumParams) +
                                  "; rebuild the program with one mstage "
                                  "version",
                              Clause),
                      *K);
  warnAboutBoundsCheckVariable();
  llvm::Error Bad = checkConfig(Config, B);
  if (!Bad) // shared_array adds to shared_bytes (LaunchLimits.h)
    Bad =
        checkSharedMemory(Config, staticSharedBytes(K->Blob), launchLimits(B));
  if (Bad)
    return withKernel(std::move(Bad), *K);
  // MSTAGE_FAST_MATH=1 is fast math for every launch; it then takes part in
  // the cache key as the kernel's own switch does.
  const BoolSetting &FastMathEverywhere = fastMathSetting();
  for (const std::string *Err :
       {&FastMathEverywhere.Error, &traceSetting().Error,
        &launchBlockingSetting().Error, &jitSettings().Error,
        &statsSetting().Error})
    if (!Err->empty())
      return withKernel(failure(*Err), *K);
  Effective = Config;
  if (FastMathEverywhere.Value)
    Effective.setFastMath(true);
  return llvm::Error::success();
}

// Makes E's code now, unless another thread made it meanwhile: the sync
// path. A background compile that failed is this launch's failure.
llvm::Error compileNow(const RegisteredKernel &K, const Backend &B,
                       CudaDriver *D, const LaunchConfig &Config,
                       const StagedLaunch &Staged, CacheEntry &E,
                       LaunchTimes &Times, bool Capturing) {
  std::lock_guard<std::mutex> G(E.Compiling);
  EntryState State = E.State.load(std::memory_order_acquire);
  if (State == EntryState::Ready)
    return llvm::Error::success();
  if (State == EntryState::Failed)
    return llvm::make_error<RuntimeFailure>(*E.Failure);
  // A captured stream's launches are recorded; making the code (module
  // loads, ptxas) is not, and is allowed meanwhile.
  std::optional<CUstreamCaptureMode> Restore;
  if (Capturing && B.Kind == BackendKind::Gpu)
    Restore = B.Driver->relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  llvm::Error Err = makeCode(K, B, D, Config, Staged, E.Code, Times);
  if (Restore)
    B.Driver->relaxCapture(*Restore);
  if (Err)
    return Err;
  // A queued background compile finds the entry ready and does nothing.
  E.State.store(EntryState::Ready, std::memory_order_release);
  return llvm::Error::success();
}

// The background compile of the specialization whose key is Key: what a
// launch that waits does (makeCode), then the entry is ready. A failure is
// reported once (the entry is compiled once); its launches go on running the
// generic code.
void compileInBackground(const RegisteredKernel &K, CacheEntry &E,
                         const std::string &Key, double EvaluateMs,
                         CudaDriver *D) {
  const Backend &B = backend();
  std::lock_guard<std::mutex> G(E.Compiling);
  if (E.ready())
    return; // a launch that could not wait made it
  StagedLaunch Staged(K, Key);
  KernelScope Scope(K.Blob, Staged.Values);
  LaunchConfig Config = Staged.config();
  LaunchTimes Times;
  Times.Evaluate = EvaluateMs;
  Times.Background = true;
  llvm::Error Err = D ? withKernel(D->bindThread(), K) : llvm::Error::success();
  if (!Err)
    Err = makeCode(K, B, D, Config, Staged, E.Code, Times);
  if (Err) {
    RuntimeFailure Failure = takeFailure(withKernel(std::move(Err), K));
    // Not this compile's failure: the next synchronizing call reports the
    // fault that broke the context.
    if (!LoadFoundContextLost) {
      RuntimeFailure Warning = Failure;
      Warning.Message += "; its generic code keeps running";
      Warning.log(llvm::errs());
      llvm::errs() << "\n";
    }
    E.Failure = std::move(Failure);
    E.State.store(EntryState::Failed, std::memory_order_release);
    return;
  }
  E.State.store(EntryState::Ready, std::memory_order_release);
  if (traceEnabled())
    traceLaunch(K.Blob, Config, Staged.Values, Staged.Facts, Times);
  noteCompileDone(K.Blob, Times);
}

// Queues E's compile unless it is queued, made or failed already: only the
// launch that finds it empty queues it.
void queueSpecialization(const RegisteredKernel &K, CacheEntry &E,
                         double EvaluateMs, CudaDriver *D) {
  EntryState Empty = EntryState::Empty;
  if (!E.State.compare_exchange_strong(Empty, EntryState::Queued,
                                       std::memory_order_acq_rel))
    return;
  queueCompile(K.Module, [&K, &E, Key = E.Key, EvaluateMs, D] {
    compileInBackground(K, E, Key, EvaluateMs, D);
  });
}

// The function of C on device D: where it was compiled and loaded, else
// loaded on D now from the code the compile kept, once per device (also
// while the stream is captured, as compileNow does).
llvm::Expected<CUfunction> functionOn(const RegisteredKernel &K,
                                      const Backend &B, const CompiledKernel &C,
                                      CudaDriver &D, bool Capturing) {
  if (C.Device == D.index())
    return C.Function;
  OtherDevices *O = C.Others.get();
  if (!O)
    return withKernel(failure("its code was not kept for " + D.shortName() +
                              "; please report this"),
                      K);
  std::atomic<CUfunction> &Slot = O->Function[D.index()];
  if (CUfunction F = Slot.load(std::memory_order_acquire))
    return F;
  std::lock_guard<std::mutex> G(O->Loading);
  if (CUfunction F = Slot.load(std::memory_order_acquire))
    return F;
  CompiledKernel Loaded;
  std::optional<CUstreamCaptureMode> Restore;
  if (Capturing)
    Restore = D.relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  llvm::Error Err = loadModule(K, B, D, O->PTX, O->Cubin, Loaded);
  if (Restore)
    D.relaxCapture(*Restore);
  if (Err)
    return std::move(Err);
  O->Module[D.index()] = Loaded.Module;
  Slot.store(Loaded.Function, std::memory_order_release);
  return Loaded.Function;
}

// "argument 2" or "a capture of the kernel's lambda", for the slot S.
std::string slotHolder(const mstage::PointerSlot &S) {
  return S.Param == 0 ? "a capture of the kernel's lambda"
                      : "argument " + std::to_string(S.Param);
}

// With several GPUs: success when every pointer of the launch that the
// runtime allocated is memory of D or of a device D has peer access to, else
// the error, naming both devices.
llvm::Error checkDevicesOfPointers(const RegisteredKernel &K, CudaDriver &D,
                                   void *const *Params,
                                   const uint32_t *ParamSizes,
                                   uint32_t NumParams) {
  for (const mstage::PointerSlot &S : K.Blob.PointerSlots) {
    if (S.Param >= NumParams || uint64_t(S.Offset) + 8 > ParamSizes[S.Param])
      continue;
    uintptr_t P;
    std::memcpy(&P, static_cast<const char *>(Params[S.Param]) + S.Offset,
                sizeof(P));
    int Owner = P ? allocationDevice(P) : NoDevice;
    if (Owner == NoDevice || unsigned(Owner) == D.index())
      continue;
    CudaDriver &OwnerDev = *CudaDriver::at(unsigned(Owner));
    if (D.peerAccess(OwnerDev))
      continue;
    return failure(slotHolder(S) + " is memory of " + OwnerDev.shortName() +
                   ", but the kernel runs on " + D.shortName() +
                   ", which has no peer access to it" +
                   std::string(peerAccessSetting().Value
                                   ? ""
                                   : " (MSTAGE_PEER_ACCESS=0)") +
                   "; copy the data with copy_from, or launch on a stream of " +
                   OwnerDev.shortName());
  }
  return llvm::Error::success();
}

// The generic code that a launch whose code is not ready may run instead
// of waiting, or null. Not with MSTAGE_JIT=sync (nor PTX-only mode's default,
// nor at exit), MSTAGE_CACHE=off (no code is kept to switch to), while the
// stream is captured (the graph keeps the specialized code) or with fast math
// (the generic code is IEEE, and would give other results).
const GenericKernel *genericCodeFor(const RegisteredKernel &K,
                                    const LaunchConfig &Config, bool Capturing,
                                    const Stream &S) {
  // The generic code is loaded on the default device only.
  if (!compilesInBackground(backend()) ||
      cacheSettings().Mode == CacheMode::Off || Capturing ||
      Config.fastMath() || !K.Generic || S.driver() != backend().Driver)
    return nullptr;
  return K.Generic->find(K.Blob.Name);
}

// Per-thread kernel timing for benchmarks (mstage_rt_time_launches).
MSTAGE_HOT_TLS thread_local bool TimeLaunches = false;
MSTAGE_HOT_TLS thread_local double LastKernelMs = 0;
MSTAGE_HOT_TLS thread_local LaunchTimes LastTimes;

} // namespace

extern "C" __attribute__((visibility("default"))) void
mstage_rt_time_launches(int Enable) {
  TimeLaunches = Enable != 0;
}

extern "C" __attribute__((visibility("default"))) double
mstage_rt_last_kernel_ms(void) {
  return LastKernelMs;
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_last_launch_source(double *TimesMs) {
  const LaunchTimes &T = LastTimes;
  if (TimesMs) {
    TimesMs[0] = T.Evaluate;
    TimesMs[1] = T.Optimize;
    TimesMs[2] = T.Codegen;
    TimesMs[3] = T.Load;
  }
  return int(T.Source);
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_last_launch_from_cubin(void) {
  return LastTimes.FromCubin ? 1 : 0;
}

extern "C" __attribute__((visibility("default"))) void
mstage_rt_flush_cache(void) {
  waitForCubinWriters();
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_prepare(const void *HostEntry) {
  return toStatus(findRunnable(HostEntry).takeError());
}

namespace {

// Where a compile ahead (mstage_rt_compile) and a question about the code
// (codeForLaunch) start: the kernel, the launch's effective configuration
// and, when asked for, the launch's key, with its pointers' facts as
// prepare() previews them.
struct CompileRequest {
  const RegisteredKernel *K = nullptr;
  LaunchConfig Effective;
  std::optional<StagedLaunch> Staged;
};

llvm::Error prepareCompile(const void *HostEntry, void *const *Params,
                           const uint32_t *ParamSizes, uint32_t NumParams,
                           const mstage_launch_config &Config, bool Keyed,
                           CompileRequest &R) {
  if (llvm::Error E =
          checkLaunch(HostEntry, NumParams, Config, R.K, R.Effective))
    return E;
  llvm::SmallVector<mstage::SlotFact, 8> Facts;
  if (llvm::Error E = launchFactsOf(*R.K, backend(), Params, ParamSizes,
                                    NumParams, /*Preview=*/true, Facts))
    return withKernel(std::move(E), *R.K);
  if (!Keyed)
    return llvm::Error::success();
  R.Staged.emplace(*R.K, Params, R.Effective, Facts);
  if (R.Staged->GaveUp >= 0)
    return withKernel(
        failure(evaluatorGaveUp(R.K->Blob, uint32_t(R.Staged->GaveUp))), *R.K);
  return llvm::Error::success();
}

// Finds or makes R's cache entry (E) and its code: now with MSTAGE_JIT=sync,
// else queued for the background.
llvm::Error compileEntry(const CompileRequest &R, CacheEntry *&E) {
  E = &R.K->Specializations->findOrInsert(R.Staged->key());
  if (E->ready())
    return llvm::Error::success();
  if (compilesInBackground(backend())) {
    queueSpecialization(*R.K, *E, 0, currentDriver());
    return llvm::Error::success();
  }
  LaunchTimes Times;
  KernelScope Scope(R.K->Blob, R.Staged->Values);
  if (llvm::Error Err = compileNow(*R.K, backend(), currentDriver(),
                                   R.Effective, *R.Staged, *E, Times, false))
    return Err;
  if (traceEnabled())
    traceLaunch(R.K->Blob, R.Effective, R.Staged->Values, R.Staged->Facts,
                Times);
  noteCompileDone(R.K->Blob, Times);
  return llvm::Error::success();
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
mstage_rt_compile(const void *HostEntry, void *const *Params,
                  const uint32_t *ParamSizes, uint32_t NumParams,
                  const mstage_launch_config *Config) {
  const CacheSettings &Cache = cacheSettings();
  // The CPU back end compiles nothing; with MSTAGE_CACHE=off no code is
  // kept for a later launch.
  bool Keeps =
      backend().Kind != BackendKind::Cpu && Cache.Mode != CacheMode::Off;
  CompileRequest R;
  if (llvm::Error Err =
          prepareCompile(HostEntry, Params, ParamSizes, NumParams, *Config,
                         Keeps && Cache.Error.empty(), R))
    return failWith(std::move(Err));
  if (!Keeps)
    return 0;
  if (!Cache.Error.empty())
    return failFor(*R.K, failure(Cache.Error));
  CacheEntry *E;
  return toStatus(compileEntry(R, E));
}

llvm::Error mstage::rt::codeForLaunch(const void *HostEntry,
                                      void *const *Params,
                                      const uint32_t *ParamSizes,
                                      uint32_t NumParams,
                                      const mstage_launch_config &Config,
                                      CUfunction &Function, CUmodule &Owned) {
  Owned = nullptr;
  CompileRequest R;
  if (llvm::Error Err = prepareCompile(HostEntry, Params, ParamSizes, NumParams,
                                       Config, /*Keyed=*/true, R))
    return Err;
  const CacheSettings &Cache = cacheSettings();
  if (Cache.Mode == CacheMode::Off) {
    CompiledKernel Code;
    LaunchTimes Times;
    if (llvm::Error Err = makeCode(*R.K, backend(), currentDriver(),
                                   R.Effective, *R.Staged, Code, Times))
      return Err;
    Function = Code.Function;
    Owned = Code.Module;
    return llvm::Error::success();
  }
  if (!Cache.Error.empty())
    return withKernel(failure(Cache.Error), *R.K);
  CacheEntry *E;
  if (llvm::Error Err = compileEntry(R, E))
    return Err;
  if (compilesInBackground(backend()))
    waitForCompiles();
  if (!E->ready())
    return E->Failure ? llvm::make_error<RuntimeFailure>(*E->Failure)
                      : withKernel(failure("its code is not ready after its "
                                           "compile; please report this"),
                                   *R.K);
  llvm::Expected<CUfunction> F =
      functionOn(*R.K, backend(), E->Code, *currentDriver(), false);
  if (!F)
    return F.takeError();
  Function = *F;
  return llvm::Error::success();
}

extern "C" __attribute__((visibility("default"))) int mstage_rt_jit_wait(void) {
  waitForCompiles();
  return 0;
}

// Off the GPU while S is captured: the launch is recorded with copies of
// its parameters, and runs (on the CPU) when the graph is replayed.
static int recordCpuLaunch(Stream &S, const RegisteredKernel &K,
                           const void *HostEntry, mstage_invoke_fn Invoke,
                           void *const *Params, const uint32_t *ParamSizes,
                           uint32_t NumParams,
                           const mstage_launch_config &Config) {
  std::vector<std::string> Copies;
  for (uint32_t I = 0; I < NumParams; ++I)
    Copies.emplace_back(static_cast<const char *>(Params[I]), ParamSizes[I]);
  S.noteLaunch(HostEntry, K.Blob.PrettyName, K.Blob.Location);
  bool Runs = backend().Kind == BackendKind::Cpu;
  return S.runOrRecord([=]() mutable {
    if (!Runs)
      return 0; // PTX-only: compiled when captured, nothing runs
    std::string Why;
    const RegisteredKernel *Live = findKernel(HostEntry, Why);
    if (!Live)
      return failWith(failure("replaying a graph: " + Why));
    std::vector<void *> Ptrs;
    for (std::string &C : Copies)
      Ptrs.push_back(C.data());
    return toStatus(
        launchOnCpuStageChecked(*Live, Invoke, Ptrs.data(), Config, nullptr));
  });
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_launch_stream_check(const void *HostEntry, mstage_stream *S,
                              uint64_t StreamId) {
  llvm::Error Why = checkStreamAlive(S, "is launched",
                                     RuntimeFailure::Join::Clause, StreamId);
  if (!Why)
    return 0;
  return failWith(withKernel(std::move(Why), mstage_rt_kernel_name(HostEntry)));
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_launch(const void *HostEntry, mstage_invoke_fn Invoke,
                 void *const *Params, const uint32_t *ParamSizes,
                 uint32_t NumParams, const mstage_launch_config *Config,
                 mstage_stream *StreamPtr) {
  const RegisteredKernel *K;
  LaunchConfig Effective;
  if (llvm::Error Err =
          checkLaunch(HostEntry, NumParams, *Config, K, Effective))
    return failWith(std::move(Err));
  LaunchScope Scope(K->Blob);
  const Backend &B = backend();
  if (llvm::Error Why = checkStreamAlive(StreamPtr, "is launched",
                                         RuntimeFailure::Join::Clause))
    return failFor(*K, std::move(Why));
  Stream &S = streamOf(StreamPtr);
  // Also on the CPU back end: a host pointer is as wrong there as on a GPU.
  llvm::SmallVector<mstage::SlotFact, 8> Facts;
  if (llvm::Error Why = launchFactsOf(*K, B, Params, ParamSizes, NumParams,
                                      /*Preview=*/false, Facts))
    return failFor(*K, std::move(Why));
  // Memory of another device than the stream's is an error without peer
  // access; with one device there is no other.
  if (B.Kind == BackendKind::Gpu && CudaDriver::count() > 1)
    if (llvm::Error Why = checkDevicesOfPointers(*K, *S.driver(), Params,
                                                 ParamSizes, NumParams))
      return failFor(*K, std::move(Why));
  if (B.Kind == BackendKind::Cpu) {
    LastTimes = LaunchTimes(); // nothing is compiled: source "memory"
    if (S.capturing()) {
      // The CPU back end is held to sm_90's parameter space (LaunchLimits.h).
      if (uint64_t InMemory =
              paramsInMemory(llvm::ArrayRef(ParamSizes, NumParams),
                             mstage::stagedParamSize(K->Blob.StageSites),
                             kernelParamLimit("sm_90")))
        return failFor(
            *K, failure(notCapturable("sm_90", ParamSizes, NumParams, InMemory),
                        Clause));
      return recordCpuLaunch(S, *K, HostEntry, Invoke, Params, ParamSizes,
                             NumParams, Effective);
    }
    StreamSpan Run(SpanKind::Kernel, S.id());
    return toStatus(launchOnCpuStageChecked(
        *K, Invoke, Params, Effective, TimeLaunches ? &LastKernelMs : nullptr));
  }

  const CacheSettings &Cache = cacheSettings();
  if (!Cache.Error.empty())
    return failFor(*K, failure(Cache.Error));

  const DumpSettings &Dumps = dumpSettings();
  bool Measure =
      traceEnabled() || TimeLaunches || Dumps.IR || Dumps.PTX || Dumps.SASS;
  LaunchTimes &Times = LastTimes;
  Times = LaunchTimes();
  auto T0 = Measure ? std::chrono::steady_clock::now()
                    : std::chrono::steady_clock::time_point();
  TracePoint EvaluateStart = traceNow();
  StagedLaunch Staged(*K, Params, Effective, Facts);
  if (Measure)
    Times.Evaluate = msSince(T0);
  noteStaged(K->Blob, Staged.Values, EvaluateStart);
  if (Staged.GaveUp >= 0)
    return failFor(*K,
                   failure(evaluatorGaveUp(K->Blob, uint32_t(Staged.GaveUp))));

  bool Capturing = S.capturing();
  // Parameters over the parameter-space limit are read from device memory
  // (CaptureInMemory.h); the code is made for that, as the sizes are the
  // kernel's.
  uint64_t InMemory =
      paramsInMemory(llvm::ArrayRef(ParamSizes, NumParams),
                     Staged.stagedBytes().size(), kernelParamLimit(B.Arch));
  if (InMemory) {
    Times.BytesInMemory =
        bytesInMemory(llvm::ArrayRef(ParamSizes, NumParams), InMemory);
    if (Capturing)
      return failFor(
          *K, failure(notCapturable(B.Arch, ParamSizes, NumParams, InMemory),
                      Clause));
  }
  // The hit path: a shared lock, no allocation, no IR.
  std::optional<CacheEntry> Uncached; // MSTAGE_CACHE=off: this launch's only
  if (Capturing && Cache.Mode == CacheMode::Off && B.Kind == BackendKind::Gpu)
    return failFor(*K, failure("cannot be captured into a graph with "
                               "MSTAGE_CACHE=off: the graph needs the code to "
                               "stay loaded"));
  TracePoint Lookup = traceNow();
  CacheEntry *E = Cache.Mode == CacheMode::Off
                      ? &Uncached.emplace()
                      : K->Specializations->find(Staged.key());
  noteMemoryLookup(Lookup, E && E->ready());
  const GenericKernel *Generic = nullptr;
  if (!E || !E->ready()) {
    if (!E)
      E = &K->Specializations->findOrInsert(Staged.key());
    Generic = Uncached ? nullptr : genericCodeFor(*K, Effective, Capturing, S);
    if (Generic) {
      queueSpecialization(*K, *E, Times.Evaluate, S.driver());
      if (E->ready())
        Generic = nullptr; // made meanwhile
      else
        Times.Source = CodeSource::Generic;
    }
    if (!Generic) {
      if (llvm::Error Err = compileNow(*K, B, S.driver(), Effective, Staged, *E,
                                       Times, Capturing))
        return failWith(std::move(Err));
      if (Uncached)
        Times.Source = CodeSource::Uncached;
    }
  }
  const CompiledKernel *C = &E->Code;
  Times.FromCubin = !Generic && C->FromCubin;
  if (traceEnabled())
    traceLaunch(K->Blob, Effective, Staged.Values, Staged.Facts, Times);
  noteLaunchCode(K->Blob, Staged.key(), Times);
  if (B.Kind == BackendKind::PtxOnly) {
    if (Capturing)
      return recordCpuLaunch(S, *K, HostEntry, Invoke, Params, ParamSizes,
                             NumParams, Effective);
    return 0;
  }

  // Destroyed after the launch: frees the copies after the kernel.
  ParamsInMemory Moved;
  if (InMemory) {
    if (llvm::Error E = Moved.copy(*S.driver(), S.handle(), Params, ParamSizes,
                                   NumParams, InMemory))
      return failFor(*K, context(std::move(E),
                                 "cannot copy " +
                                     std::to_string(Times.BytesInMemory) +
                                     " bytes of parameters to device memory"));
    Params = Moved.params();
  }

  float Ms = 0;
  bool Timed = TimeLaunches && !Capturing;
  // The generic code takes the staged values as one more parameter.
  llvm::SmallVector<void *, 16> GenericParams;
  if (Generic) {
    GenericParams.assign(Params, Params + NumParams);
    if (!K->Blob.StageSites.empty())
      GenericParams.push_back(const_cast<char *>(Staged.stagedBytes().data()));
  }
  // Compiled once, loaded on each device that launches it.
  CUfunction Function = nullptr;
  if (!Generic) {
    llvm::Expected<CUfunction> F =
        functionOn(*K, B, *C, *S.driver(), Capturing);
    if (!F)
      return failWith(F.takeError());
    Function = *F;
  }
  GpuSpan Run(SpanKind::Kernel, *S.driver(), S.handle(), S.id(), S.capturing());
  llvm::Error St = S.driver()->launch(
      Generic ? Generic->Function : Function, Effective.grid, Effective.block,
      Effective.shared_bytes,
      Generic ? GenericParams.data() : const_cast<void **>(Params), S.handle(),
      Timed ? &Ms : nullptr);
  LastKernelMs = Ms;
  if (St) {
    if (Uncached && Uncached->Code.Module)
      llvm::consumeError(S.driver()->unloadModule(Uncached->Code.Module));
    // A fault of an earlier kernel makes every later call fail: name those.
    CUresult Code = cudaErrorCode(St);
    if (Code == CUDA_ERROR_INVALID_VALUE ||
        Code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
        Code == CUDA_ERROR_INVALID_HANDLE)
      return failFor(*K, std::move(St));
    return failWith(asyncFailure(
        std::move(St), &S, "launching kernel '" + K->Blob.PrettyName + "'"));
  }
  Run.enqueued();
  S.noteLaunch(HostEntry, K->Blob.PrettyName, K->Blob.Location);
  // Code that is not cached is unloaded after its kernel, which must be
  // waited for; so must every launch under MSTAGE_LAUNCH_BLOCKING=1.
  if (!Capturing && (Uncached || launchBlockingSetting().Value)) {
    St = S.driver()->synchronizeStream(S.handle());
    if (Uncached && Uncached->Code.Module)
      llvm::consumeError(S.driver()->unloadModule(Uncached->Code.Module));
    if (St)
      return failFor(*K, context(std::move(St), "failed", Clause));
    S.forgetLaunches();
  }
  return 0;
}
