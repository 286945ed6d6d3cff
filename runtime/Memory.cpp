//===- Memory.cpp - The C API's device memory functions -------------------===//
//
// Each goes to the back end (core/Backend.h): on a GPU driver allocations
// and copies, on the device of the stream they are given (or the thread's
// current device); on the CPU back end and in PTX-only mode host memory, so
// that programs run through unchanged. Here: the allocation map, the trace's
// host spans, and the memory that graphs hold.
//
//===----------------------------------------------------------------------===//
#include "GraphMemory.h"
#include "HostStaging.h"
#include "core/AllocationMap.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "core/StreamCheck.h"
#include "inspect/TraceEvents.h"
#include "support/Export.h"

#include "mstage/abi.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

using namespace mstage::rt;


// Each allocation is noted, with its device, so that launches can place
// their pointers (AllocationMap.h).
static int noted(int Err, void *const *Ptr, size_t Bytes,
                 streamcheck::MemoryKind Kind, int Device = NoDevice) {
  if (!Err) {
    noteAllocation(*Ptr, Bytes, Device);
    if (streamcheck::on())
      streamcheck::allocated(*Ptr, Bytes, Kind);
  }
  return Err;
}

static void forget(const void *P) {
  forgetAllocation(P);
  if (streamcheck::on())
    streamcheck::freed(P);
}

// MSTAGE_CHECK=streams: an operation on S that reads and writes memory.
static void checkUses(mstage_stream *S, const char *What,
                      std::initializer_list<streamcheck::Use> Uses) {
  if (streamcheck::on())
    streamcheck::operation(streamOf(S), What, Uses);
}

// The device whose memory P is (NoDevice: not the runtime's allocation).
static int ownerOf(const void *P) {
  return allocationDevice(reinterpret_cast<uintptr_t>(P));
}

extern "C" {

MSTAGE_EXPORT int mstage_rt_executes(void) {
  const Backend &B = backend();
  if (!B.usable()) {
    failWith(failure(B.reason()));
    return -1;
  }
  return B.executes() ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_alloc(void **Ptr, size_t Bytes) {
  unsigned Device = currentDevice();
  return noted(toStatus(backend().alloc(Bytes, Device, Ptr)), Ptr, Bytes,
               streamcheck::MemoryKind::Device, int(Device));
}

MSTAGE_EXPORT int mstage_rt_free(void *Ptr) {
  int Owner = ownerOf(Ptr);
  forget(Ptr);
  return toStatus(backend().free(Ptr, Owner));
}

MSTAGE_EXPORT int mstage_rt_copy_to_device(void *Dst, const void *Src,
                                           size_t Bytes) {
  const Backend &B = backend();
  HostSpan Span(SpanKind::CopyToDevice, Bytes);
  return toStatus(B.copyToDevice(Dst, Src, Bytes));
}

MSTAGE_EXPORT int mstage_rt_copy_to_host(void *Dst, const void *Src,
                                         size_t Bytes) {
  const Backend &B = backend();
  HostSpan Span(SpanKind::CopyToHost, Bytes);
  return toStatus(B.copyToHost(Dst, Src, Bytes));
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
  int Owner = ownerOf(Ptr);
  forget(Ptr);
  return backend().freeAsync(Ptr, Owner, S);
}

// Whether a free of Ptr outside any capture is deferred, or was not to be.
static bool holdsFree(void *Ptr) {
  GraphMemory &M = graphMemory();
  std::lock_guard<std::mutex> G(M.Lock);
  if (M.Escaped.erase(Ptr)) {
    forget(Ptr);
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
    if (backend().onGpu()) // each replay allocates it anew
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

MSTAGE_EXPORT int mstage_rt_alloc_async(void **Ptr, size_t Bytes,
                                        mstage_stream *SP) {
  Stream &S = streamOf(SP);
  int Err = noted(toStatus(backend().allocAsync(Bytes, S, Ptr)), Ptr, Bytes,
                  streamcheck::MemoryKind::Device, int(S.device()));
  if (!Err && *Ptr && S.capturing()) // the graph's (GraphMemory.h)
    S.recording().Allocs.push_back(*Ptr);
  return Err;
}

MSTAGE_EXPORT int mstage_rt_free_async(void *Ptr, mstage_stream *SP) {
  if (!Ptr)
    return 0;
  const bool Gpu = backend().onGpu();
  Stream &S = streamOf(SP);
  if (S.capturing()) {
    Recording &Rec = S.recording();
    auto Made = llvm::find(Rec.Allocs, Ptr);
    if (Made != Rec.Allocs.end()) {
      Rec.Allocs.erase(Made);
      // Made in the capture: on a GPU a free node, so that each replay
      // frees what it allocated; off it, the replays reuse the memory.
      if (Gpu)
        return freeNow(Ptr, &S);
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
  checkUses(SP, "upload", {{Dst, Bytes, true}, {Src, Bytes, false}});
  return backend().copyToDeviceAsync(streamOf(SP), Dst, Src, Bytes);
}

MSTAGE_EXPORT int mstage_rt_copy_to_host_async(void *Dst, const void *Src,
                                               size_t Bytes,
                                               mstage_stream *SP) {
  checkUses(SP, "download", {{Src, Bytes, false}, {Dst, Bytes, true}});
  return backend().copyToHostAsync(streamOf(SP), Dst, Src, Bytes);
}

MSTAGE_EXPORT int mstage_rt_download_staged(const void *Src, size_t Bytes,
                                            size_t ElementBytes,
                                            mstage_stream *SP,
                                            mstage_chunk_sink Sink,
                                            void *Context, int *Staged) {
  // The host's copies out of the chunks are not the stream's writes. Not
  // staged, the caller's plain download notes its read again.
  checkUses(SP, "download", {{Src, Bytes, false}});
  bool Done = false;
  int Status = downloadStaged(streamOf(SP), Src, Bytes, ElementBytes, Sink,
                              Context, Done);
  *Staged = Done;
  // A staged download ends with the stream synchronized, as a plain one.
  if (Done && !Status && streamcheck::on())
    streamcheck::streamDone(streamOf(SP));
  return Status;
}

MSTAGE_EXPORT int mstage_rt_copy_device_async(void *Dst, const void *Src,
                                              size_t Bytes, mstage_stream *SP) {
  checkUses(SP, "copy_from", {{Src, Bytes, false}, {Dst, Bytes, true}});
  return backend().copyOnDeviceAsync(streamOf(SP), Dst, Src, Bytes);
}

MSTAGE_EXPORT int mstage_rt_fill_async(void *Dst, const void *Pattern,
                                       size_t ElementBytes, size_t Count,
                                       mstage_stream *SP) {
  checkUses(SP, "fill", {{Dst, ElementBytes * Count, true}});
  return backend().fillAsync(streamOf(SP), Dst, Pattern, ElementBytes, Count);
}

MSTAGE_EXPORT int mstage_rt_host_alloc(void **Ptr, size_t Bytes) {
  return noted(toStatus(backend().allocHost(Bytes, Ptr)), Ptr, Bytes,
               streamcheck::MemoryKind::Pinned);
}

MSTAGE_EXPORT int mstage_rt_host_free(void *Ptr) {
  forget(Ptr);
  return toStatus(backend().freeHost(Ptr));
}

MSTAGE_EXPORT int mstage_rt_managed_alloc(void **Ptr, size_t Bytes) {
  return noted(toStatus(backend().allocManaged(Bytes, Ptr)), Ptr, Bytes,
               streamcheck::MemoryKind::Managed);
}

MSTAGE_EXPORT int mstage_rt_managed_free(void *Ptr) {
  forget(Ptr);
  return toStatus(backend().freeManaged(Ptr));
}

MSTAGE_EXPORT int mstage_rt_prefetch(const void *Ptr, size_t Bytes,
                                     int ToDevice, mstage_stream *SP) {
  return backend().prefetch(SP, Ptr, Bytes, ToDevice != 0);
}

MSTAGE_EXPORT int mstage_rt_pointer_device(const void *Ptr) {
  return allocationDevice(reinterpret_cast<uintptr_t>(Ptr));
}

} // extern "C"
