//===- CudaBackend.cpp - The GPU back end, by the CUDA driver -------------===//
#include "backends/cuda/CudaBackend.h"
#include "backends/cuda/CudaDeviceGlobals.h"
#include "core/AllocationMap.h"
#include "core/GraphNodes.h"
#include "core/KernelRegistry.h"
#include "core/LaunchLimits.h"
#include "core/LostContext.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/TraceEvents.h"
#include "jit/CompilePool.h"
#include "replay/GraphReplay.h"
#include "support/Settings.h"

#include <cassert>

namespace mstage::rt {

static CUdeviceptr dev(const void *P) {
  return reinterpret_cast<CUdeviceptr>(P);
}

// The driver of device Owner, or of the current device when it is NoDevice.
static CudaDriver *driverFor(int Owner) {
  return Owner == NoDevice ? currentDriver() : CudaDriver::at(unsigned(Owner));
}

// The driver of the device whose memory P is, else of the current device.
static CudaDriver *driverFor(const void *P) {
  return driverFor(allocationDevice(reinterpret_cast<uintptr_t>(P)));
}

// A copy within one device's memory, as memmove: cuMemcpyDtoDAsync is not
// defined for overlapping ranges, so those go through a temporary (in a
// capture, graph memory of each replay).
static llvm::Error copyOnDevice(Stream &S, void *Dst, const void *Src,
                                size_t Bytes) {
  CudaDriver &D = *S.driver();
  uintptr_t To = uintptr_t(Dst), From = uintptr_t(Src);
  if (To == From || Bytes == 0)
    return llvm::Error::success();
  if (To >= From + Bytes || From >= To + Bytes)
    return D.copyDeviceAsync(dev(Dst), dev(Src), Bytes, S.handle());
  CUdeviceptr Tmp = 0;
  if (llvm::Error E = D.allocAsync(Bytes, S.handle(), &Tmp))
    return context(std::move(E), "copying between overlapping ranges");
  llvm::Error E = D.copyDeviceAsync(Tmp, dev(Src), Bytes, S.handle());
  if (!E)
    E = D.copyDeviceAsync(dev(Dst), Tmp, Bytes, S.handle());
  llvm::Error Freed = D.freeAsync(Tmp, S.handle());
  if (E) {
    llvm::consumeError(std::move(Freed));
    return E;
  }
  return Freed;
}

CudaBackend::CudaBackend(CudaDriver &Default, std::string Arch)
    : Backend(BackendTraits{"cuda", /*Usable=*/true, /*Executes=*/true,
                            /*Compiles=*/true, /*OnGpu=*/true},
              std::move(Arch), "", &Default),
      Default(Default) {}

void CudaBackend::start() const {
  startCompilePool(/*OnGpu=*/true, arch());
  const JitSettings &Jit = jitSettings();
  // Only launches that may run the generic code need it loaded: not under
  // MSTAGE_JIT=sync, whose launches wait for their specialization. (A
  // kernel's shared_array bytes are read by its first launch: LaunchLimits.h.)
  if (Jit.Async)
    preloadGenericCode();
}

unsigned CudaBackend::deviceCount() const { return CudaDriver::count(); }

unsigned CudaBackend::defaultDevice() const { return Default.index(); }

CudaDriver *CudaBackend::driver(unsigned Device) const {
  return CudaDriver::at(Device);
}

void CudaBackend::describeDevice(unsigned Device,
                                 mstage_device_properties &P) const {
  const CudaDriver &D = *CudaDriver::at(Device);
  P.total_memory = D.totalMemory();
  copyText(P.pci_bus_id, sizeof(P.pci_bus_id), D.pciBusId());
  copyText(P.name, sizeof(P.name), D.deviceName());
  copyText(P.arch, sizeof(P.arch), D.arch());
  P.multiprocessors = uint32_t(D.multiprocessorCount());
  P.shared_memory_per_block = uint32_t(D.maxSharedBytesPerBlockOptin());
  P.shared_memory_per_multiprocessor =
      uint32_t(D.maxSharedBytesPerMultiprocessor());
  P.max_threads_per_block = uint32_t(D.maxThreadsPerBlock());
  P.max_threads_per_multiprocessor = uint32_t(D.maxThreadsPerMultiprocessor());
  P.warp_size = uint32_t(D.warpSize());
}

LaunchLimits CudaBackend::limits() const {
  LaunchLimits L;
  for (int I = 0; I < 3; ++I) {
    L.Block[I] = uint64_t(Default.maxBlockDim(I));
    L.Grid[I] = uint64_t(Default.maxGridDim(I));
  }
  L.BlockThreads = uint64_t(Default.maxThreadsPerBlock());
  L.SharedBytes = uint64_t(Default.maxSharedBytesPerBlockOptin());
  L.Whose = "the device's";
  L.Note = " (" + Default.deviceName() + ", " + Default.arch() + ")";
  return L;
}

llvm::Error CudaBackend::occupancy(CodeMaker Code,
                                   const mstage_launch_config &Config,
                                   const char *Kernel, int *Blocks) const {
  CUfunction Function = nullptr;
  CUmodule Owned = nullptr;
  if (llvm::Error E = Code(Function, Owned))
    return E;
  assert(Function && "the launch's code was made");
  uint32_t Threads = Config.block[0] * Config.block[1] * Config.block[2];
  CudaDriver *D = currentDriver();
  llvm::Error E =
      D->occupancy(Function, int(Threads), Config.shared_bytes, Blocks);
  if (Owned)
    llvm::consumeError(D->unloadModule(Owned));
  return withKernel(std::move(E), Kernel);
}

llvm::Error CudaBackend::alloc(size_t Bytes, unsigned Device,
                               void **Ptr) const {
  CUdeviceptr D = 0;
  llvm::Error E = CudaDriver::at(Device)->alloc(Bytes, &D);
  *Ptr = reinterpret_cast<void *>(D);
  return E;
}

llvm::Error CudaBackend::free(void *Ptr, int Owner) const {
  if (llvm::Error E = enqueueHeldWork("freeing memory"))
    return E;
  return driverFor(Owner)->free(dev(Ptr));
}

llvm::Error CudaBackend::copyToDevice(void *Dst, const void *Src,
                                      size_t Bytes) const {
  if (llvm::Error E = enqueueHeldWork("copying to the device"))
    return E;
  return driverFor(Dst)->copyToDevice(dev(Dst), Src, Bytes);
}

llvm::Error CudaBackend::copyToHost(void *Dst, const void *Src,
                                    size_t Bytes) const {
  if (llvm::Error E = enqueueHeldWork("copying to the host"))
    return E;
  return driverFor(Src)->copyToHost(Dst, dev(Src), Bytes);
}

llvm::Error CudaBackend::allocHost(size_t Bytes, void **Ptr) const {
  return currentDriver()->allocHost(Bytes, Ptr);
}

llvm::Error CudaBackend::freeHost(void *Ptr) const {
  if (llvm::Error E = enqueueHeldWork("freeing pinned memory"))
    return E;
  return currentDriver()->freeHost(Ptr);
}

llvm::Error CudaBackend::allocManaged(size_t Bytes, void **Ptr) const {
  CUdeviceptr D = 0;
  llvm::Error E = currentDriver()->allocManaged(Bytes, &D);
  *Ptr = reinterpret_cast<void *>(D);
  return E;
}

llvm::Error CudaBackend::freeManaged(void *Ptr) const {
  if (llvm::Error E = enqueueHeldWork("freeing managed memory"))
    return E;
  return currentDriver()->free(dev(Ptr));
}

llvm::Error CudaBackend::allocAsync(size_t Bytes, Stream &S, void **Ptr) const {
  if (llvm::Error E = enqueueHeldWork("allocating on a stream"))
    return E;
  CUdeviceptr D = 0;
  llvm::Error E = S.driver()->allocAsync(Bytes, S.handle(), &D);
  *Ptr = reinterpret_cast<void *>(D);
  return E;
}

int CudaBackend::freeAsync(void *Ptr, int Owner, Stream *S) const {
  if (int St = toStatus(enqueueHeldWork("freeing on a stream")))
    return St;
  if (S)
    return toStatus(S->driver()->freeAsync(dev(Ptr), S->handle()));
  // A replay of the graph that held it may still be running.
  CudaDriver *D = driverFor(Owner);
  llvm::Error E = D->synchronize();
  if (!E)
    E = D->freeAsync(dev(Ptr), nullptr);
  return toStatus(std::move(E));
}

int CudaBackend::copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  if (int St = toStatus(enqueueHeldWork("copying to the device")))
    return St;
  GpuSpan Span(SpanKind::CopyToDevice, *S.driver(), S.handle(), S.id(),
               S.capturing(), Bytes);
  return Span.enqueued(toStatus(
      S.driver()->copyToDeviceAsync(dev(Dst), Src, Bytes, S.handle())));
}

int CudaBackend::copyToHostAsync(Stream &S, void *Dst, const void *Src,
                                 size_t Bytes) const {
  if (int St = toStatus(enqueueHeldWork("copying to the host")))
    return St;
  GpuSpan Span(SpanKind::CopyToHost, *S.driver(), S.handle(), S.id(),
               S.capturing(), Bytes);
  llvm::Error E = S.driver()->copyToHostAsync(Dst, dev(Src), Bytes, S.handle());
  // A fault of an earlier kernel surfaces here.
  return Span.enqueued(
      E ? failWith(asyncFailure(std::move(E), &S, "copying to the host")) : 0);
}

// Whether Dst and Src are both memory of S's device: with one device, any
// device memory is.
static bool onStreamDevice(const Stream &S, const void *Dst, const void *Src) {
  if (CudaDriver::count() == 1)
    return true;
  int To = allocationDevice(dev(Dst)), From = allocationDevice(dev(Src));
  return To != NoDevice && To == From && unsigned(To) == S.driver()->index();
}

int CudaBackend::copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  // MSTAGE_GRAPHS=auto: a copy between two apart ranges of the stream's
  // device may be held back and replayed with the launches around it
  // (docs/graphs.md).
  uintptr_t To = uintptr_t(Dst), From = uintptr_t(Src);
  bool Apart = Bytes && (To >= From + Bytes || From >= To + Bytes);
  if (Apart && !S.capturing() && replayOn() && onStreamDevice(S, Dst, Src)) {
    GpuSpan Span(SpanKind::CopyOnDevice, *S.driver(), S.handle(), S.id(), false,
                 Bytes);
    bool Held = false;
    int St = toStatus(copyOrHold(S, dev(Dst), dev(Src), Bytes, Held));
    return Held ? St : Span.enqueued(St); // a held copy's span times nothing
  }
  if (int St = toStatus(enqueueHeldWork("copying on the device")))
    return St;
  GpuSpan Span(SpanKind::CopyOnDevice, *S.driver(), S.handle(), S.id(),
               S.capturing(), Bytes);
  // Between two devices' memory: a peer copy. One device has no other.
  if (CudaDriver::count() > 1) {
    int To = allocationDevice(dev(Dst)), From = allocationDevice(dev(Src));
    if (To != NoDevice && From != NoDevice && To != From)
      return Span.enqueued(
          toStatus(CudaDriver::at(unsigned(To))
                       ->copyPeerAsync(dev(Dst), dev(Src),
                                       *CudaDriver::at(unsigned(From)), Bytes,
                                       S.handle())));
  }
  return Span.enqueued(toStatus(copyOnDevice(S, Dst, Src, Bytes)));
}

int CudaBackend::fillAsync(Stream &S, void *Dst, const void *Pattern,
                           size_t ElementBytes, size_t Count) const {
  // MSTAGE_GRAPHS=auto: may be held back with the launches around it.
  if (Count && ElementBytes && !S.capturing() && replayOn())
    return toStatus(fillOrHold(S, dev(Dst), Pattern, ElementBytes, Count));
  if (int St = toStatus(enqueueHeldWork("filling memory")))
    return St;
  return toStatus(S.driver()->fillAsync(dev(Dst), Pattern, ElementBytes, Count,
                                        S.handle()));
}

int CudaBackend::prefetch(mstage_stream *SP, const void *Ptr, size_t Bytes,
                          bool ToDevice) const {
  if (int St = toStatus(enqueueHeldWork("prefetching")))
    return St;
  Stream &S = streamOf(SP);
  return toStatus(S.driver()->prefetch(dev(Ptr), Bytes, ToDevice, S.handle()));
}

// As cudaMemcpyToSymbol: after the device's work.
llvm::Error CudaBackend::uploadGlobal(void *Host, size_t Bytes, bool Constant,
                                      unsigned Device,
                                      const void *Value) const {
  if (llvm::Error E = enqueueHeldWork("uploading a device_global"))
    return E;
  if (llvm::Error E = CudaDriver::at(Device)->synchronize())
    return E;
  return uploadDeviceGlobal(Device, Host, Bytes, Constant, Value);
}

llvm::Error CudaBackend::downloadGlobal(const void *Host, size_t Bytes,
                                        bool Constant, unsigned Device,
                                        void *Value) const {
  if (llvm::Error E = enqueueHeldWork("downloading a device_global"))
    return E;
  if (llvm::Error E = CudaDriver::at(Device)->synchronize())
    return E;
  return downloadDeviceGlobal(Device, Host, Bytes, Constant, Value);
}

Backend::Pointer CudaBackend::findPointer(uintptr_t P, uintptr_t &Start) const {
  CUdeviceptr First;
  size_t Size;
  if (Default.pointerRange(P, &First, &Size)) {
    Start = First;
    return Pointer::Allocation;
  }
  return Default.pageableMemoryAccess() ? Pointer::HostReadable
                                        : Pointer::Unknown;
}

// Events and graphs are the driver's, of the device of the stream they are
// used on.

llvm::Error CudaBackend::createEvent(mstage_event &E) const {
  E.Driver = currentDriver();
  return E.Driver->createEvent(&E.Handle);
}

void CudaBackend::destroyEvent(mstage_event &E) const {
  if (E.Handle)
    llvm::consumeError(E.Driver->destroyEvent(E.Handle));
}

int CudaBackend::recordEvent(mstage_event &E, Stream &S) const {
  if (int St = toStatus(enqueueHeldWork("recording an event")))
    return St;
  // An event is recorded on a stream of its own device: one of another
  // device is remade here.
  if (E.Driver != S.driver()) {
    CUevent Handle = nullptr;
    if (llvm::Error Err = S.driver()->createEvent(&Handle))
      return failWith(failureOrFault(std::move(Err), &S, "recording an event"));
    llvm::consumeError(E.Driver->destroyEvent(E.Handle));
    E.Handle = Handle;
    E.Driver = S.driver();
  }
  return toStatus(failureOrFault(E.Driver->recordEvent(E.Handle, S.handle()),
                                 &S, "recording an event"));
}

int CudaBackend::waitEvent(Stream &Waiting, mstage_event &E) const {
  if (int St = toStatus(enqueueHeldWork("waiting for an event")))
    return St;
  assert(E.StreamId && "only a recorded event is waited for");
  // A stream may wait for an event of another device.
  return toStatus(
      context(Waiting.driver()->waitEvent(Waiting.handle(), E.Handle),
              "waiting for an event"));
}

int CudaBackend::synchronizeEvent(mstage_event &E) const {
  if (int St = toStatus(enqueueHeldWork("waiting for an event")))
    return St;
  assert(E.StreamId && "only a recorded event is waited for");
  llvm::Error Err = E.Driver->synchronizeEvent(E.Handle);
  if (!Err)
    return 0;
  return failWith(asyncFailure(std::move(Err), findStream(E.StreamId),
                               "waiting for an event"));
}

int CudaBackend::queryEvent(mstage_event &E) const {
  if (llvm::Error Err = enqueueHeldWork("asking about an event")) {
    failWith(std::move(Err));
    return -1;
  }
  assert(E.StreamId && "only a recorded event is asked about");
  CUresult R = E.Driver->queryEvent(E.Handle);
  if (R == CUDA_SUCCESS)
    return 1;
  if (R == CUDA_ERROR_NOT_READY)
    return 0;
  failWith(asyncFailure(cudaFailure(R, E.Driver->errorText(R, "cuEventQuery")),
                        findStream(E.StreamId), "waiting for an event"));
  return -1;
}

int CudaBackend::elapsedMs(float *Ms, const mstage_event &Start,
                           const mstage_event &End) const {
  if (Start.Driver != End.Driver)
    return failWith(failure(
        "elapsed_ms: the events were recorded on " + Start.Driver->shortName() +
        " and " + End.Driver->shortName() + "; time events of one device"));
  return toStatus(context(Start.Driver->elapsedMs(Ms, Start.Handle, End.Handle),
                          "elapsed_ms"));
}

llvm::Error CudaBackend::beginCapture(Stream &S) const {
  if (llvm::Error E = enqueueHeldWork("beginning a capture"))
    return E;
  // The memory pool is made now if it is not there yet: making it is not
  // allowed while a stream of the thread is captured.
  // (A pool that cannot be made fails the first allocation, which says so.)
  llvm::consumeError(S.driver()->makePool());
  return S.driver()->beginCapture(S.handle());
}

llvm::Error CudaBackend::endCapture(Stream &S, mstage_graph &G,
                                    bool Instantiate) const {
  G.Driver = S.driver();
  llvm::Error E = G.Driver->endCapture(S.handle(), &G.Graph);
  if (!E && Instantiate)
    E = G.Driver->instantiate(G.Graph, &G.Exec);
  return E;
}

int CudaBackend::launchGraph(mstage_graph &G, Stream &S) const {
  if (int St = toStatus(enqueueHeldWork("launching a graph")))
    return St;
  if (S.driver() != G.Driver)
    return failWith(failure("launching a graph captured on " +
                            G.Driver->shortName() + " on a stream of " +
                            S.driver()->shortName() +
                            "; a graph runs on the device it was captured on"));
  if (llvm::Error E = G.Driver->launchGraph(G.Exec, S.handle()))
    return failWith(asyncFailure(std::move(E), &S, "launching a graph"));
  S.noteLaunches(G.Rec.Kernels);
  return 0;
}

void CudaBackend::destroyGraph(mstage_graph &G) const {
  if (!G.Driver)
    return;
  // A destructor's: a failure stays recorded for the next call.
  if (G.Built && !G.Built->Keep.empty())
    llvm::consumeError(G.Driver->synchronize());
  G.Driver->destroyGraph(G.Graph, G.Exec);
}

llvm::Error CudaBackend::runHostBody(const RegisteredKernel &, mstage_invoke_fn,
                                     void *const *,
                                     const mstage_launch_config &,
                                     double *) const {
  assert(false && "the GPU runs compiled code, not host bodies");
  return failure("the cuda back end runs no host body");
}

llvm::Error CudaBackend::loadModule(unsigned Device, const std::string &Image,
                                    bool Cubin, CUmodule *Module,
                                    std::string *InfoLog,
                                    int PtxOptLevel) const {
  CudaDriver &D = *CudaDriver::at(Device);
  if (llvm::Error E =
          Cubin ? D.loadModuleFromCubin(Image, Module)
                : D.loadModuleFromPtx(Image, Module, InfoLog, PtxOptLevel))
    return E;
  // Before any of its kernels runs: the device globals it holds.
  if (llvm::Error E = bindDeviceGlobals(Device, *Module)) {
    llvm::consumeError(D.unloadModule(*Module));
    *Module = nullptr;
    return E;
  }
  return llvm::Error::success();
}

llvm::Error CudaBackend::getFunction(unsigned Device, CUmodule Module,
                                     const std::string &Name,
                                     CUfunction *Function) const {
  return CudaDriver::at(Device)->getFunction(Module, Name, Function);
}

llvm::Error CudaBackend::unloadModule(unsigned Device, CUmodule Module) const {
  if (llvm::Error E = enqueueHeldWork("unloading a module", /*Unloading=*/true))
    return E;
  forgetDeviceGlobals(Device, Module);
  return CudaDriver::at(Device)->unloadModule(Module);
}

llvm::Error CudaBackend::launch(Stream &S, CUfunction Function,
                                const mstage_launch_config &Config,
                                void **Params, LaunchKind Kind,
                                float *ElapsedMs) const {
  assert(S.driver() && "a GPU stream has its device's driver");
  return S.driver()->launch(Function, Config.grid, Config.block,
                            Config.shared_bytes, Params, S.handle(), ElapsedMs,
                            Kind);
}

unsigned CudaBackend::relaxCapture() const {
  return unsigned(Default.relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED));
}

void CudaBackend::restoreCapture(unsigned Mode) const {
  Default.relaxCapture(CUstreamCaptureMode(Mode));
}

llvm::Error CudaBackend::createQueue(unsigned Device, CUstream *Queue) const {
  return CudaDriver::at(Device)->createStream(Queue);
}

llvm::Error CudaBackend::synchronizeDevices() const {
  if (llvm::Error E = enqueueHeldWork("waiting for all devices"))
    return E;
  // Every device that some thread used; the first failure is reported.
  llvm::Error First = llvm::Error::success();
  for (unsigned I = 0, N = CudaDriver::count(); I < N; ++I)
    if (CudaDriver *D = CudaDriver::at(I); D->used())
      if (llvm::Error E = D->synchronize()) {
        if (First)
          llvm::consumeError(std::move(E));
        else
          First = std::move(E);
      }
  return First;
}

} // namespace mstage::rt
