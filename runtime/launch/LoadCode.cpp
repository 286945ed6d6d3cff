//===- LoadCode.cpp - A specialization's module on each device ------------===//
#include "launch/LoadCode.h"
#include "core/LostContext.h"
#include "cuda/CudaDriver.h"
#include "inspect/TraceEvents.h"
#include "launch/JitCompile.h"

#include "llvm/Support/raw_ostream.h"
#include "support/Warning.h"

#include <atomic>
#include <cassert>
#include <memory>
#include <mutex>
#include <optional>

namespace mstage::rt {

// Set by loadModule on this thread: its load failed because of such a fault.
static thread_local bool LoadFoundContextLost = false;

bool loadFoundContextLost() { return LoadFoundContextLost; }

// Loads the cubin into Out on D when it loads there, else reports (once)
// that this driver refuses cubins (from a toolkit newer than the driver),
// which are not tried again.
static llvm::Error loadCubin(const RegisteredKernel &K, const Backend &B,
                             unsigned Device, const std::string &Cubin,
                             CompiledKernel &Out) {
  static std::atomic<bool> CubinsRefused{false};
  if (CubinsRefused.load(std::memory_order_relaxed))
    return llvm::Error::success();
  llvm::Error E = B.loadModule(Device, Cubin, /*Cubin=*/true, &Out.Module);
  if (!E) {
    Out.FromCubin = true;
    return llvm::Error::success();
  }
  if (contextLost(cudaErrorCode(E))) {
    LoadFoundContextLost = true;
    return withKernel(std::move(E), K);
  }
  std::string Why = failureMessage(std::move(E));
  static std::once_flag Warned;
  std::call_once(Warned, [&] {
    warn(K.Blob.PrettyName, "the cubin from ptxas does not load: " + Why);
    warn("kernels are loaded as PTX from now on");
  });
  CubinsRefused = true;
  return llvm::Error::success();
}

// Loads the code into Out on D: the cubin when there is one and this
// driver takes it, else the PTX.
static llvm::Error loadModule(const RegisteredKernel &K, const Backend &B,
                              CudaDriver &D, const std::string &PTX,
                              const std::string &Cubin, CompiledKernel &Out,
                              int PtxOptLevel = -1) {
  HostSpan Span(SpanKind::Load);
  LoadFoundContextLost = false;
  Out.Device = D.index();
  // The code is compiled for B.arch(); with several devices, one of another
  // architecture JIT-compiles the PTX (a cubin it refuses would turn cubins
  // off for the others too).
  if (!Cubin.empty() && (D.arch() == B.arch() || B.deviceCount() == 1))
    if (llvm::Error E = loadCubin(K, B, D.index(), Cubin, Out))
      return E;
  llvm::Error E = Out.Module ? llvm::Error::success()
                             : B.loadModule(D.index(), PTX, /*Cubin=*/false,
                                            &Out.Module, nullptr, PtxOptLevel);
  if (!E)
    E = B.getFunction(D.index(), Out.Module, K.Blob.Name, &Out.Function);
  if (E) {
    LoadFoundContextLost = contextLost(cudaErrorCode(E));
    return withKernel(std::move(E), K);
  }
  assert(Out.Function && "a loaded module has the kernel's function");
  return llvm::Error::success();
}

// Whether all blocks of R's grid are resident at once on R's device with
// Function's occupancy: only then is code that begins with the wait launched
// programmatically (entryWaitWanted); otherwise plainly, where the wait
// returns at once. An occupancy the driver cannot tell launches plainly.
static bool gridFitsAtOnce(const CodeRequest &R, CUfunction Function) {
  int PerMultiprocessor = 0;
  if (llvm::Error E =
          R.D->occupancy(Function, int(R.Config.blockThreads()),
                         R.Config.sharedBytes(), &PerMultiprocessor)) {
    llvm::consumeError(std::move(E));
    return false;
  }
  return R.Config.blocks() <=
         uint64_t(PerMultiprocessor) * uint64_t(R.D->multiprocessorCount());
}

llvm::Error loadCode(const CodeRequest &R, const CachedCode &Code,
                     CompiledKernel &Out, int PtxOptLevel) {
  Out.EntryWaits = entryWaitWanted(R);
  if (!R.B.loadsCode()) {
    Out.FromCubin = !Code.Cubin.empty();
    return llvm::Error::success();
  }
  assert(R.D && "code is loaded on the GPU on a device");
  if (llvm::Error E =
          loadModule(R.K, R.B, *R.D, Code.PTX, Code.Cubin, Out, PtxOptLevel))
    return E;
  if (Out.EntryWaits)
    Out.EntryWaits = gridFitsAtOnce(R, Out.Function);
  // Kept for the other devices, which load it when they first launch it.
  if (R.B.deviceCount() > 1) {
    Out.Others = std::make_shared<OtherDevices>();
    Out.Others->PTX = Code.PTX;
    Out.Others->Cubin = Code.Cubin;
  }
  return llvm::Error::success();
}

llvm::Expected<CUfunction> functionOn(const RegisteredKernel &K,
                                      const Backend &B, const CompiledKernel &C,
                                      CudaDriver &D, bool Capturing) {
  assert(D.index() < MaxDevices && "a device has its slot");
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
  std::optional<unsigned> Restore;
  if (Capturing)
    Restore = B.relaxCapture();
  llvm::Error Err = loadModule(K, B, D, O->PTX, O->Cubin, Loaded);
  if (Restore)
    B.restoreCapture(*Restore);
  if (Err)
    return std::move(Err);
  O->Module[D.index()] = Loaded.Module;
  Slot.store(Loaded.Function, std::memory_order_release);
  return Loaded.Function;
}

} // namespace mstage::rt
