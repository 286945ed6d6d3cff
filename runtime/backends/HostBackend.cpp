//===- HostBackend.cpp - What the back ends without a GPU share -----------===//
#include "backends/HostBackend.h"
#include "formats/AotImage.h"
#include "core/LaunchLimits.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "inspect/TraceEvents.h"

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace mstage::rt {

namespace {

// What an architecture fixes beyond LaunchLimits (CUDA programming guide,
// "Technical Specifications per Compute Capability"): shared memory and
// threads per multiprocessor. {0, 0} for one this table does not know.
struct ArchFacts {
  unsigned SharedKiBPerSM, ThreadsPerSM;
};

} // namespace

static ArchFacts archFacts(llvm::StringRef Arch) {
  static const struct {
    unsigned CC;
    ArchFacts F;
  } Table[] = {{50, {64, 2048}},   {52, {96, 2048}},   {53, {64, 2048}},
               {60, {64, 2048}},   {61, {96, 2048}},   {62, {64, 2048}},
               {70, {96, 2048}},   {72, {96, 2048}},   {75, {64, 1024}},
               {80, {164, 2048}},  {86, {100, 1536}},  {87, {164, 2048}},
               {89, {100, 1536}},  {90, {228, 2048}},  {100, {228, 2048}},
               {101, {228, 2048}}, {103, {228, 2048}}, {110, {228, 2048}},
               {120, {100, 1536}}, {121, {100, 1536}}};
  unsigned CC = mstage::archNumber(Arch);
  for (const auto &T : Table)
    if (T.CC == CC)
      return T.F;
  return {0, 0};
}

// Device memory off the GPU.
static llvm::Error hostAlloc(void **Ptr, size_t Bytes) {
  *Ptr = nullptr;
  if (Bytes > SIZE_MAX - 255) // rounded up, it would wrap to a small size
    return failure("out of host memory: " + std::to_string(Bytes) +
                   " bytes asked for");
  *Ptr = std::aligned_alloc(256, Bytes ? (Bytes + 255) / 256 * 256 : 256);
  return *Ptr ? llvm::Error::success() : failure("out of host memory");
}

// A copy is a memmove in the stream's order.
static int hostCopy(Stream &S, void *Dst, const void *Src, size_t Bytes,
                    SpanKind Kind) {
  return S.runOrRecord([=, Id = S.id()] {
    StreamSpan Span(Kind, Id, Bytes);
    std::memmove(Dst, Src, Bytes);
    return 0;
  });
}

LaunchLimits HostBackend::limits() const {
  LaunchLimits Cpu = archLaunchLimits("sm_90");
  Cpu.Note = "; the CPU back end takes only what a GPU takes";
  return Cpu;
}

void HostBackend::describeHeldTo(const std::string &Arch,
                                 llvm::StringRef ArchText,
                                 mstage_device_properties &P) const {
  const LaunchLimits &L = launchLimits(*this);
  ArchFacts F = archFacts(Arch);
  if (!F.ThreadsPerSM)
    F = archFacts("sm_90"); // as LaunchLimits does for an unknown one
  copyText(P.arch, sizeof(P.arch), ArchText);
  P.shared_memory_per_block = uint32_t(L.SharedBytes);
  P.shared_memory_per_multiprocessor = F.SharedKiBPerSM * 1024;
  P.max_threads_per_block = uint32_t(L.BlockThreads);
  P.max_threads_per_multiprocessor = F.ThreadsPerSM;
}

llvm::Error HostBackend::alloc(size_t Bytes, unsigned, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::free(void *Ptr, int) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::copyToDevice(void *Dst, const void *Src,
                                      size_t Bytes) const {
  std::memcpy(Dst, Src, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::copyToHost(void *Dst, const void *Src,
                                    size_t Bytes) const {
  std::memcpy(Dst, Src, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocHost(size_t Bytes, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::freeHost(void *Ptr) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocManaged(size_t Bytes, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::freeManaged(void *Ptr) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocAsync(size_t Bytes, Stream &S, void **Ptr) const {
  return alloc(Bytes, S.device(), Ptr);
}

int HostBackend::freeAsync(void *Ptr, int, Stream *) const {
  std::free(Ptr);
  return 0;
}

int HostBackend::copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToDevice);
}

int HostBackend::copyToHostAsync(Stream &S, void *Dst, const void *Src,
                                 size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToHost);
}

int HostBackend::copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyOnDevice);
}

int HostBackend::fillAsync(Stream &S, void *Dst, const void *Pattern,
                           size_t ElementBytes, size_t Count) const {
  assert((ElementBytes || !Count) && "a fill has elements of some size");
  std::string Element(static_cast<const char *>(Pattern), ElementBytes);
  return S.runOrRecord([=] {
    auto *Out = static_cast<char *>(Dst);
    for (size_t I = 0; I < Count; ++I)
      std::memcpy(Out + I * ElementBytes, Element.data(), ElementBytes);
    return 0;
  });
}

int HostBackend::prefetch(mstage_stream *, const void *, size_t, bool) const {
  return 0; // already where the kernels run
}

// Off the GPU, work is done when it is enqueued: an event completes when it
// is recorded, and nothing is left to wait for.

llvm::Error HostBackend::createEvent(mstage_event &) const {
  return llvm::Error::success();
}

void HostBackend::destroyEvent(mstage_event &E) const {
  assert(!E.Handle && "no CUDA event off the GPU");
}

int HostBackend::recordEvent(mstage_event &E, Stream &S) const {
  return S.runOrRecord([Time = E.Time] {
    *Time = std::chrono::steady_clock::now();
    return 0;
  });
}

int HostBackend::waitEvent(Stream &, mstage_event &) const { return 0; }

int HostBackend::synchronizeEvent(mstage_event &) const { return 0; }

int HostBackend::queryEvent(mstage_event &) const { return 1; }

int HostBackend::elapsedMs(float *Ms, const mstage_event &Start,
                           const mstage_event &End) const {
  *Ms =
      std::chrono::duration<float, std::milli>(*End.Time - *Start.Time).count();
  return 0;
}

llvm::Error HostBackend::beginCapture(Stream &) const {
  return llvm::Error::success(); // the stream records its host operations
}

llvm::Error HostBackend::endCapture(Stream &, mstage_graph &, bool) const {
  return llvm::Error::success();
}

int HostBackend::launchGraph(mstage_graph &G, Stream &S) const {
  // Replayed within another capture, the operations are recorded again.
  for (const HostOp &Op : G.Rec.Ops)
    if (int Err = S.runOrRecord(Op))
      return Err;
  return 0;
}

void HostBackend::destroyGraph(mstage_graph &G) const {
  assert(!G.Driver && "no CUDA graph off the GPU");
}

Backend::Pointer HostBackend::findPointer(uintptr_t, uintptr_t &) const {
  return Pointer::Unknown; // the allocation map holds all device memory
}

// The host object is the one kernels use; after the work in flight.
llvm::Error HostBackend::uploadGlobal(void *Host, size_t Bytes, bool,
                                      unsigned Device,
                                      const void *Value) const {
  if (Device >= deviceCount())
    return failure("device_global upload to device " + std::to_string(Device) +
                   ", and the " + name() + " back end has one device, 0");
  if (llvm::Error E = synchronizeDevices())
    return E;
  std::memmove(Host, Value, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::downloadGlobal(const void *Host, size_t Bytes, bool,
                                        unsigned Device, void *Value) const {
  if (Device >= deviceCount())
    return failure("device_global download from device " +
                   std::to_string(Device) + ", and the " + name() +
                   " back end has one device, 0");
  if (llvm::Error E = synchronizeDevices())
    return E;
  std::memmove(Value, Host, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::runHostBody(const RegisteredKernel &, mstage_invoke_fn,
                                     void *const *,
                                     const mstage_launch_config &,
                                     double *) const {
  assert(false && "only the CPU back end runs host bodies");
  return failure(std::string("the ") + name() + " back end runs no host body");
}

llvm::Error HostBackend::loadModule(unsigned, const std::string &, bool,
                                    CUmodule *Module, std::string *,
                                    int) const {
  *Module = nullptr;
  return llvm::Error::success();
}

llvm::Error HostBackend::getFunction(unsigned, CUmodule, const std::string &,
                                     CUfunction *Function) const {
  *Function = nullptr;
  return llvm::Error::success();
}

llvm::Error HostBackend::unloadModule(unsigned, CUmodule Module) const {
  assert(!Module && "nothing is loaded off the GPU");
  return llvm::Error::success();
}

llvm::Error HostBackend::launch(Stream &, CUfunction,
                                const mstage_launch_config &, void **,
                                LaunchKind, float *) const {
  assert(false && "compiled code runs only on a GPU");
  return failure(std::string("the ") + name() + " back end launches no code");
}

llvm::Error HostBackend::createQueue(unsigned, CUstream *Queue) const {
  *Queue = nullptr;
  return llvm::Error::success();
}

llvm::Error HostBackend::synchronizeDevices() const {
  return llvm::Error::success();
}

} // namespace mstage::rt
