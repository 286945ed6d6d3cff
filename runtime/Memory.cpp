//===- Memory.cpp - The C API's device memory functions -------------------===//
//
// On a GPU these are driver allocations and copies, on the device of the
// stream they are given (or the thread's current device). On the CPU back
// end and in PTX-only mode device memory is host memory, so that programs
// run through unchanged.
//
//===----------------------------------------------------------------------===//
#include "GraphMemory.h"
#include "core/AllocationMap.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "inspect/TraceEvents.h"
#include "support/Export.h"

#include "mstage/abi.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

using namespace mstage::rt;

static int unavailable() { return failWith(failure(backend().Reason)); }

// Device memory off the GPU. Aligned as cudaMalloc's memory is (256 bytes),
// so that code that relies on it behaves the same on the CPU.
static int hostAlloc(void **Ptr, size_t Bytes) {
  *Ptr = nullptr;
  if (Bytes > SIZE_MAX - 255) // rounded up, it would wrap to a small size
    return failWith(failure("out of host memory: " + std::to_string(Bytes) +
                            " bytes asked for"));
  *Ptr = std::aligned_alloc(256, Bytes ? (Bytes + 255) / 256 * 256 : 256);
  return *Ptr ? 0 : failWith(failure("out of host memory"));
}

// Each allocation is noted, with its device, so that launches can place
// their pointers (AllocationMap.h).
static int noted(int Err, void *const *Ptr, size_t Bytes,
                 int Device = NoDevice) {
  if (!Err)
    noteAllocation(*Ptr, Bytes, Device);
  return Err;
}

// The driver of the device whose memory P is, else of the current device.
static CudaDriver *driverFor(const void *P) {
  int Device = allocationDevice(reinterpret_cast<uintptr_t>(P));
  return Device == NoDevice ? currentDriver() : driverOf(unsigned(Device));
}

extern "C" {

MSTAGE_EXPORT int mstage_rt_executes(void) {
  switch (backend().Kind) {
  case BackendKind::Gpu:
  case BackendKind::Cpu:
    return 1;
  case BackendKind::PtxOnly:
    return 0;
  case BackendKind::Unavailable:
    unavailable();
    return -1;
  }
  return -1;
}

static int allocImpl(void **Ptr, size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu) {
    CUdeviceptr D = 0;
    llvm::Error E = currentDriver()->alloc(Bytes, &D);
    *Ptr = reinterpret_cast<void *>(D);
    return toStatus(std::move(E));
  }
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  return hostAlloc(Ptr, Bytes);
}

MSTAGE_EXPORT int mstage_rt_alloc(void **Ptr, size_t Bytes) {
  return noted(allocImpl(Ptr, Bytes), Ptr, Bytes, int(currentDevice()));
}

MSTAGE_EXPORT int mstage_rt_free(void *Ptr) {
  CudaDriver *D = driverFor(Ptr);
  forgetAllocation(Ptr);
  if (D)
    return toStatus(D->free(reinterpret_cast<CUdeviceptr>(Ptr)));
  std::free(Ptr);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_copy_to_device(void *Dst, const void *Src,
                                           size_t Bytes) {
  const Backend &B = backend();
  HostSpan Span(SpanKind::CopyToDevice, Bytes);
  if (B.Kind == BackendKind::Gpu)
    return toStatus(driverFor(Dst)->copyToDevice(
        reinterpret_cast<CUdeviceptr>(Dst), Src, Bytes));
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  std::memcpy(Dst, Src, Bytes);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_copy_to_host(void *Dst, const void *Src,
                                         size_t Bytes) {
  const Backend &B = backend();
  HostSpan Span(SpanKind::CopyToHost, Bytes);
  if (B.Kind == BackendKind::Gpu)
    return toStatus(driverFor(Src)->copyToHost(
        Dst, reinterpret_cast<CUdeviceptr>(Src), Bytes));
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  std::memcpy(Dst, Src, Bytes);
  return 0;
}

// The stream-ordered operations. On a GPU they are enqueued on the stream;
// off it they run at once, in the stream's order (or are recorded while the
// stream is captured).

static CUdeviceptr dev(const void *P) {
  return reinterpret_cast<CUdeviceptr>(P);
}

// Off the GPU, a copy is a memmove in the stream's order.
static int hostCopy(Stream &S, void *Dst, const void *Src, size_t Bytes,
                    SpanKind Kind) {
  if (backend().Kind == BackendKind::Unavailable)
    return unavailable();
  return S.runOrRecord([=, Id = S.id()] {
    StreamSpan Span(Kind, Id, Bytes);
    std::memmove(Dst, Src, Bytes);
    return 0;
  });
}

} // extern "C"

// Memory held by graphs (GraphMemory.h).
namespace {
struct Held {
  unsigned Graphs = 0;      // the live graphs that use it
  bool FreePending = false; // freed while they did
};
struct GraphMemory {
  std::mutex Lock;
  std::unordered_map<void *, Held> Memory;
  // On a GPU: memory made by a capture that ended with it still allocated;
  // the graph, which owned it, is gone.
  std::unordered_set<void *> Escaped;
};
GraphMemory &graphMemory() {
  static auto *M = new GraphMemory; // used until the very end of exit
  return *M;
}
} // namespace

// Frees device memory on S (null: after all work on its device).
static int freeNow(void *Ptr, Stream *S) {
  CudaDriver *D = driverFor(Ptr);
  forgetAllocation(Ptr);
  if (backend().Kind != BackendKind::Gpu) {
    std::free(Ptr);
    return 0;
  }
  if (S)
    return toStatus(S->driver()->freeAsync(dev(Ptr), S->handle()));
  // A replay of the graph that held it may still be running.
  llvm::Error E = D->synchronize();
  if (!E)
    E = D->freeAsync(dev(Ptr), nullptr);
  return toStatus(std::move(E));
}

// Whether a free of Ptr outside any capture is deferred, or was not to be.
static bool holdsFree(void *Ptr) {
  GraphMemory &M = graphMemory();
  std::lock_guard<std::mutex> G(M.Lock);
  if (M.Escaped.erase(Ptr)) {
    forgetAllocation(Ptr);
    return true;
  }
  auto It = M.Memory.find(Ptr);
  if (It == M.Memory.end())
    return false;
  It->second.FreePending = true;
  return true;
}

std::vector<void *> mstage::rt::holdGraphMemory(Recording &Rec,
                                                std::string &Escaped) {
  GraphMemory &M = graphMemory();
  std::vector<void *> Holds;
  std::lock_guard<std::mutex> G(M.Lock);
  auto Hold = [&](void *P) -> Held & {
    Held &H = M.Memory[P];
    if (!llvm::is_contained(Holds, P)) {
      ++H.Graphs;
      Holds.push_back(P);
    }
    return H;
  };
  for (void *P : Rec.Uses)
    if (!llvm::is_contained(Rec.Allocs, P)) // escaped memory is not held
      Hold(P);
  for (void *P : Rec.Frees)
    Hold(P).FreePending = true;
  Escaped.clear();
  if (!Rec.Allocs.empty()) {
    Escaped = std::to_string(Rec.Allocs.size()) +
              (Rec.Allocs.size() == 1 ? " allocation" : " allocations");
    if (backend().Kind == BackendKind::Gpu)
      M.Escaped.insert(Rec.Allocs.begin(), Rec.Allocs.end());
  }
  return Holds;
}

void mstage::rt::releaseGraphMemory(const std::vector<void *> &Holds) {
  std::vector<void *> Free;
  {
    GraphMemory &M = graphMemory();
    std::lock_guard<std::mutex> G(M.Lock);
    for (void *P : Holds) {
      auto It = M.Memory.find(P);
      assert(It != M.Memory.end() && It->second.Graphs);
      if (--It->second.Graphs)
        continue;
      if (It->second.FreePending && !M.Escaped.erase(P))
        Free.push_back(P);
      M.Memory.erase(It);
    }
  }
  for (void *P : Free)
    (void)freeNow(P, nullptr); // a destructor's: a failure stays recorded
}

extern "C" {

static int allocAsyncImpl(void **Ptr, size_t Bytes, mstage_stream *SP) {
  const Backend &B = backend();
  if (B.Kind != BackendKind::Gpu)
    return allocImpl(Ptr, Bytes);
  CUdeviceptr D = 0;
  Stream &St = streamOf(SP);
  llvm::Error E = St.driver()->allocAsync(Bytes, St.handle(), &D);
  *Ptr = reinterpret_cast<void *>(D);
  return toStatus(std::move(E));
}

MSTAGE_EXPORT int mstage_rt_alloc_async(void **Ptr, size_t Bytes,
                                        mstage_stream *SP) {
  Stream &S = streamOf(SP);
  int Err = noted(allocAsyncImpl(Ptr, Bytes, SP), Ptr, Bytes, int(S.device()));
  if (!Err && *Ptr && S.capturing()) // the graph's (GraphMemory.h)
    S.recording().Allocs.push_back(*Ptr);
  return Err;
}

MSTAGE_EXPORT int mstage_rt_free_async(void *Ptr, mstage_stream *SP) {
  if (!Ptr)
    return 0;
  const bool Gpu = backend().Kind == BackendKind::Gpu;
  Stream &S = streamOf(SP);
  if (S.capturing()) {
    Recording &Rec = S.recording();
    auto Made = llvm::find(Rec.Allocs, Ptr);
    if (Made != Rec.Allocs.end()) {
      Rec.Allocs.erase(Made);
      // Made in the capture: on a GPU a free node, so that each replay
      // frees what it allocated; off it, the replays reuse the memory.
      if (Gpu) {
        forgetAllocation(Ptr);
        return toStatus(S.driver()->freeAsync(dev(Ptr), S.handle()));
      }
    }
    // The replays may use it: freed with the graph.
    Rec.Frees.push_back(Ptr);
    return 0;
  }
  return holdsFree(Ptr) ? 0 : freeNow(Ptr, &S);
}

MSTAGE_EXPORT int mstage_rt_capture_uses(mstage_stream *SP, const void *Ptr) {
  Stream &S = streamOf(SP);
  if (!Ptr || !S.capturing())
    return 0;
  std::vector<void *> &Uses = S.recording().Uses;
  if (!llvm::is_contained(Uses, Ptr))
    Uses.push_back(const_cast<void *>(Ptr));
  return 0;
}

MSTAGE_EXPORT int mstage_rt_copy_to_device_async(void *Dst, const void *Src,
                                                 size_t Bytes,
                                                 mstage_stream *SP) {
  const Backend &B = backend();
  Stream &S = streamOf(SP);
  if (B.Kind == BackendKind::Gpu) {
    GpuSpan Span(SpanKind::CopyToDevice, *S.driver(), S.handle(), S.id(),
                 S.capturing(), Bytes);
    return Span.enqueued(toStatus(
        S.driver()->copyToDeviceAsync(dev(Dst), Src, Bytes, S.handle())));
  }
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToDevice);
}

MSTAGE_EXPORT int mstage_rt_copy_to_host_async(void *Dst, const void *Src,
                                               size_t Bytes,
                                               mstage_stream *SP) {
  const Backend &B = backend();
  Stream &S = streamOf(SP);
  if (B.Kind == BackendKind::Gpu) {
    GpuSpan Span(SpanKind::CopyToHost, *S.driver(), S.handle(), S.id(),
                 S.capturing(), Bytes);
    llvm::Error E =
        S.driver()->copyToHostAsync(Dst, dev(Src), Bytes, S.handle());
    // A fault of an earlier kernel surfaces here.
    return Span.enqueued(
        E ? failWith(asyncFailure(std::move(E), &S, "copying to the host"))
          : 0);
  }
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToHost);
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

MSTAGE_EXPORT int mstage_rt_copy_device_async(void *Dst, const void *Src,
                                              size_t Bytes, mstage_stream *SP) {
  const Backend &B = backend();
  Stream &S = streamOf(SP);
  if (B.Kind == BackendKind::Gpu) {
    GpuSpan Span(SpanKind::CopyOnDevice, *S.driver(), S.handle(), S.id(),
                 S.capturing(), Bytes);
    // Between two devices' memory: a peer copy. One device has no other.
    if (CudaDriver::count() > 1) {
      int To = allocationDevice(dev(Dst)), From = allocationDevice(dev(Src));
      if (To != NoDevice && From != NoDevice && To != From)
        return Span.enqueued(toStatus(
            driverOf(unsigned(To))
                ->copyPeerAsync(dev(Dst), dev(Src), *driverOf(unsigned(From)),
                                Bytes, S.handle())));
    }
    return Span.enqueued(toStatus(copyOnDevice(S, Dst, Src, Bytes)));
  }
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyOnDevice);
}

MSTAGE_EXPORT int mstage_rt_fill_async(void *Dst, const void *Pattern,
                                       size_t ElementBytes, size_t Count,
                                       mstage_stream *SP) {
  const Backend &B = backend();
  Stream &S = streamOf(SP);
  if (B.Kind == BackendKind::Gpu)
    return toStatus(S.driver()->fillAsync(dev(Dst), Pattern, ElementBytes,
                                          Count, S.handle()));
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  std::string Element(static_cast<const char *>(Pattern), ElementBytes);
  return S.runOrRecord([=] {
    auto *Out = static_cast<char *>(Dst);
    for (size_t I = 0; I < Count; ++I)
      std::memcpy(Out + I * ElementBytes, Element.data(), ElementBytes);
    return 0;
  });
}

static int hostAllocImpl(void **Ptr, size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return toStatus(currentDriver()->allocHost(Bytes, Ptr));
  return hostAlloc(Ptr, Bytes);
}

MSTAGE_EXPORT int mstage_rt_host_alloc(void **Ptr, size_t Bytes) {
  return noted(hostAllocImpl(Ptr, Bytes), Ptr, Bytes);
}

MSTAGE_EXPORT int mstage_rt_host_free(void *Ptr) {
  forgetAllocation(Ptr);
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return toStatus(currentDriver()->freeHost(Ptr));
  std::free(Ptr);
  return 0;
}

static int managedAllocImpl(void **Ptr, size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu) {
    CUdeviceptr D = 0;
    llvm::Error E = currentDriver()->allocManaged(Bytes, &D);
    *Ptr = reinterpret_cast<void *>(D);
    return toStatus(std::move(E));
  }
  return hostAlloc(Ptr, Bytes);
}

MSTAGE_EXPORT int mstage_rt_managed_alloc(void **Ptr, size_t Bytes) {
  return noted(managedAllocImpl(Ptr, Bytes), Ptr, Bytes);
}

MSTAGE_EXPORT int mstage_rt_managed_free(void *Ptr) {
  forgetAllocation(Ptr);
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return toStatus(currentDriver()->free(dev(Ptr)));
  std::free(Ptr);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_prefetch(const void *Ptr, size_t Bytes,
                                     int ToDevice, mstage_stream *SP) {
  const Backend &B = backend();
  if (B.Kind != BackendKind::Gpu)
    return 0; // already where the CPU back end runs
  Stream &S = streamOf(SP);
  return toStatus(
      S.driver()->prefetch(dev(Ptr), Bytes, ToDevice != 0, S.handle()));
}

MSTAGE_EXPORT int mstage_rt_pointer_device(const void *Ptr) {
  return allocationDevice(reinterpret_cast<uintptr_t>(Ptr));
}

} // extern "C"
