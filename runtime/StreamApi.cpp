//===- StreamApi.cpp - The C ABI of streams, events and graphs ------------===//
//
// On a GPU each is its CUDA object. Off the GPU work runs as it is
// enqueued: an event completes when it is recorded (its time is the host's
// clock then), and a graph is the list of host operations its capture
// recorded, replayed in order.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "RuntimeError.h"
#include "Stream.h"

#include "mstage/abi.h"

#include <chrono>
#include <cstdlib>
#include <memory>

using namespace mstage::rt;

#define MSTAGE_EXPORT __attribute__((visibility("default")))

struct mstage_event {
  CUevent Handle = nullptr; // GPU
  uint64_t StreamId = 0;    // where it was last recorded; 0: never
  // Off the GPU: when it was recorded; shared with a capture's recorded
  // operation, which may replay after the event is gone.
  std::shared_ptr<std::chrono::steady_clock::time_point> Time =
      std::make_shared<std::chrono::steady_clock::time_point>();
};

struct mstage_graph {
  CUgraph Graph = nullptr;
  CUgraphExec Exec = nullptr;
  Recording Rec; // off the GPU: the operations; on it: the kernels
};

namespace {

int result(const std::string &Err) { return Err.empty() ? 0 : fail(Err); }

bool onGpu() { return backend().Kind == BackendKind::Gpu; }

} // namespace

extern "C" {

MSTAGE_EXPORT int mstage_rt_stream_create(mstage_stream **Out) {
  Stream *S = createStream();
  *Out = reinterpret_cast<mstage_stream *>(S);
  return S ? 0 : 1;
}

MSTAGE_EXPORT void mstage_rt_stream_destroy(mstage_stream *S) {
  destroyStream(reinterpret_cast<Stream *>(S));
}

MSTAGE_EXPORT mstage_stream *mstage_rt_stream_current(void) {
  return reinterpret_cast<mstage_stream *>(&currentStream());
}

MSTAGE_EXPORT uint64_t mstage_rt_stream_id(mstage_stream *S) {
  return streamOf(S).id();
}

MSTAGE_EXPORT void *mstage_rt_stream_native(mstage_stream *S) {
  return streamOf(S).handle();
}

MSTAGE_EXPORT int mstage_rt_stream_synchronize(mstage_stream *S) {
  return result(synchronizeStream(streamOf(S)));
}

MSTAGE_EXPORT int mstage_rt_stream_capturing(mstage_stream *S) {
  return streamOf(S).capturing() ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_synchronize(void) {
  return result(synchronizeAll());
}

MSTAGE_EXPORT int mstage_rt_stream_order_after(mstage_stream *S,
                                               uint64_t OtherId) {
  Stream &Self = streamOf(S);
  if (OtherId == Self.id())
    return 0;
  Stream *Other = findStream(OtherId);
  if (!Other) // gone: its work completed when it was destroyed
    return 0;
  Status St = Self.orderAfter(*Other);
  return St ? 0 : fail("mstage: ordering streams: " + St.Message);
}

MSTAGE_EXPORT int mstage_rt_event_create(mstage_event **Out) {
  auto *E = new mstage_event;
  if (onGpu())
    if (Status St = backend().Driver->createEvent(&E->Handle); !St) {
      delete E;
      *Out = nullptr;
      return fail("mstage: cannot make an event: " + St.Message);
    }
  *Out = E;
  return 0;
}

MSTAGE_EXPORT void mstage_rt_event_destroy(mstage_event *E) {
  if (!E)
    return;
  if (E->Handle)
    backend().Driver->destroyEvent(E->Handle);
  delete E;
}

MSTAGE_EXPORT int mstage_rt_event_record(mstage_event *E, mstage_stream *SP) {
  Stream &S = streamOf(SP);
  E->StreamId = S.id();
  if (onGpu()) {
    Status St = backend().Driver->recordEvent(E->Handle, S.handle());
    return St ? 0 : fail("mstage: recording an event: " + St.Message);
  }
  return S.runOrRecord([Time = E->Time] {
    *Time = std::chrono::steady_clock::now();
    return 0;
  });
}

MSTAGE_EXPORT int mstage_rt_stream_wait_event(mstage_stream *S,
                                              mstage_event *E) {
  if (!onGpu() || !E->StreamId)
    return 0; // off the GPU, recorded work is done; unrecorded: no wait
  Status St = backend().Driver->waitEvent(streamOf(S).handle(), E->Handle);
  return St ? 0 : fail("mstage: waiting for an event: " + St.Message);
}

MSTAGE_EXPORT int mstage_rt_event_synchronize(mstage_event *E) {
  if (!onGpu() || !E->StreamId)
    return 0;
  Status St = backend().Driver->synchronizeEvent(E->Handle);
  if (St)
    return 0;
  return fail(asyncFailure(St, findStream(E->StreamId),
                           "waiting for an event"));
}

MSTAGE_EXPORT int mstage_rt_event_query(mstage_event *E) {
  if (!onGpu() || !E->StreamId)
    return 1;
  CUresult R = backend().Driver->queryEvent(E->Handle);
  if (R == CUDA_SUCCESS)
    return 1;
  if (R == CUDA_ERROR_NOT_READY)
    return 0;
  fail(asyncFailure(Status::failure(
                        R, backend().Driver->errorText(R, "cuEventQuery")),
                    findStream(E->StreamId), "waiting for an event"));
  return -1;
}

MSTAGE_EXPORT int mstage_rt_event_elapsed(float *Ms, mstage_event *Start,
                                          mstage_event *End) {
  *Ms = 0;
  if (!Start->StreamId || !End->StreamId)
    return fail("mstage: elapsed_ms: an event was never recorded");
  if (onGpu()) {
    Status St = backend().Driver->elapsedMs(Ms, Start->Handle, End->Handle);
    return St ? 0 : fail("mstage: elapsed_ms: " + St.Message);
  }
  *Ms = std::chrono::duration<float, std::milli>(*End->Time - *Start->Time)
            .count();
  return 0;
}

MSTAGE_EXPORT void *mstage_rt_event_native(mstage_event *E) {
  return E->Handle;
}

MSTAGE_EXPORT int mstage_rt_capture_begin(mstage_stream *SP) {
  Stream &S = streamOf(SP);
  if (S.capturing())
    return fail("mstage: capture: stream " + std::to_string(S.id()) +
                " is already being captured");
  if (onGpu())
    if (Status St = backend().Driver->beginCapture(S.handle()); !St)
      return fail("mstage: capture: " + St.Message);
  S.setCapturing(true);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_capture_end(mstage_stream *SP,
                                        mstage_graph **Out) {
  Stream &S = streamOf(SP);
  if (Out)
    *Out = nullptr;
  if (!S.capturing())
    return fail("mstage: capture: stream " + std::to_string(S.id()) +
                " is not being captured");
  S.setCapturing(false);
  auto G = std::make_unique<mstage_graph>();
  G->Rec = S.takeRecording();
  if (onGpu()) {
    Status St = backend().Driver->endCapture(S.handle(), &G->Graph);
    if (St && Out)
      St = backend().Driver->instantiate(G->Graph, &G->Exec);
    if (!St) {
      backend().Driver->destroyGraph(G->Graph, G->Exec);
      return fail("mstage: capture: " + St.Message);
    }
  }
  if (!Out) { // discarded: an exception left the captured function
    mstage_rt_graph_destroy(G.release());
    return 0;
  }
  *Out = G.release();
  return 0;
}

MSTAGE_EXPORT int mstage_rt_graph_launch(mstage_graph *G, mstage_stream *SP) {
  Stream &S = streamOf(SP);
  if (onGpu()) {
    Status St = backend().Driver->launchGraph(G->Exec, S.handle());
    if (!St)
      return fail(asyncFailure(St, &S, "launching a graph"));
    S.noteLaunches(G->Rec.Kernels);
    return 0;
  }
  // Replayed within another capture, the operations are recorded again.
  for (const HostOp &Op : G->Rec.Ops)
    if (int Err = S.runOrRecord(Op))
      return Err;
  return 0;
}

MSTAGE_EXPORT void mstage_rt_graph_destroy(mstage_graph *G) {
  if (!G)
    return;
  for (void *P : G->Rec.Frees)
    std::free(P);
  if (onGpu())
    backend().Driver->destroyGraph(G->Graph, G->Exec);
  delete G;
}

} // extern "C"
