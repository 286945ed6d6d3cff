//===- StreamApi.cpp - The C ABI of streams, events and graphs ------------===//
//
// The handles, their checks and captures' bookkeeping; what an event or a
// graph is belongs to the back end (core/Backend.h): on a GPU each is its
// CUDA object, of the device of the stream it is used on; off the GPU work
// runs as it is enqueued, an event completes when it is recorded, and a
// graph is the list of host operations its capture recorded.
//
//===----------------------------------------------------------------------===//
#include "Capture.h"
#include "GraphMemory.h"
#include "await/AwaitThread.h"
#include "core/Backend.h"
#include "core/LostContext.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "core/StreamCheck.h"
#include "inspect/Nvtx.h"
#include "replay/GraphReplay.h"
#include "support/Export.h"

#include "mstage/abi.h"

#include <atomic>
#include <cstdlib>
#include <memory>

using namespace mstage::rt;


namespace {

// The stream the thread captures on each device, for memory made then.
thread_local Stream *CapturedOn[MaxDevices] = {};

std::atomic<uint64_t> Records{0};

} // namespace

int mstage::rt::endCapture(Stream &S, mstage_graph **Out, bool Instantiate) {
  if (Out)
    *Out = nullptr;
  if (!S.capturing())
    return failWith(failure("capture: stream " + std::to_string(S.id()) +
                            " is not being captured"));
  S.setCapturing(false);
  if (CapturedOn[S.device()] == &S)
    CapturedOn[S.device()] = nullptr;
  auto G = std::make_unique<mstage_graph>();
  if (streamcheck::on())
    streamcheck::captureEnded(S, Out ? G.get() : nullptr);
  G->Rec = S.takeRecording();
  std::string Escaped;
  G->Holds = holdGraphMemory(G->Rec, Escaped);
  if (llvm::Error E =
          backend().endCapture(S, *G, Instantiate && Out && Escaped.empty())) {
    mstage_rt_graph_destroy(G.release());
    return failWith(context(std::move(E), "capture"));
  }
  if (Out && !Escaped.empty()) {
    mstage_rt_graph_destroy(G.release());
    return failWith(failure(
        "capture: " + Escaped +
        " made inside the capture (a device_vector made or resized in the "
        "captured function) outlive it; memory made in a capture belongs to "
        "the graph and exists only while a replay runs: make it before "
        "capture(), or let it go out of scope inside the captured function"));
  }
  if (!Out) { // discarded: an exception left the captured function
    mstage_rt_graph_destroy(G.release());
    return 0;
  }
  *Out = G.release();
  return 0;
}

extern "C" {

MSTAGE_EXPORT int mstage_rt_stream_create(mstage_stream **Out) {
  return mstage_rt_stream_create_on(currentDevice(), Out);
}

MSTAGE_EXPORT int mstage_rt_stream_create_on(unsigned Device,
                                             mstage_stream **Out) {
  Stream *S = createStream(Device);
  *Out = reinterpret_cast<mstage_stream *>(S);
  return S ? 0 : 1;
}

MSTAGE_EXPORT unsigned mstage_rt_stream_device(mstage_stream *S) {
  return streamOf(S).device();
}

MSTAGE_EXPORT mstage_stream *mstage_rt_stream_current_on(unsigned Device) {
  if (Device >= MaxDevices || !checkDevice(Device).empty())
    return nullptr;
  return reinterpret_cast<mstage_stream *>(&currentStreamOn(Device));
}

MSTAGE_EXPORT void mstage_rt_stream_destroy(mstage_stream *S) {
  // Destroying waits for the stream's work.
  if (S && streamcheck::on() && reinterpret_cast<Stream *>(S)->alive())
    streamcheck::streamDone(*reinterpret_cast<Stream *>(S));
  destroyStream(reinterpret_cast<Stream *>(S));
}

MSTAGE_EXPORT mstage_stream *mstage_rt_stream_current(void) {
  return reinterpret_cast<mstage_stream *>(&currentStream());
}

MSTAGE_EXPORT uint64_t mstage_rt_stream_id(mstage_stream *S) {
  return streamOf(S).id();
}

MSTAGE_EXPORT void *mstage_rt_stream_native(mstage_stream *S) {
  // Work enqueued through the handle is out of replay's sight.
  turnReplayOff("a native stream handle was taken");
  return streamOf(S).handle();
}

MSTAGE_EXPORT int mstage_rt_stream_synchronize(mstage_stream *S) {
  if (llvm::Error E = checkStreamAlive(S, "synchronize()"))
    return failWith(std::move(E));
  NvtxRange Wait("wait stream synchronize");
  int Status = toStatus(synchronizeStream(streamOf(S)));
  if (streamcheck::on())
    streamcheck::streamDone(streamOf(S));
  return Status;
}

MSTAGE_EXPORT int mstage_rt_stream_capturing(mstage_stream *S) {
  return streamOf(S).capturing() ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_synchronize(void) {
  NvtxRange Wait("wait synchronize");
  if (streamcheck::on())
    streamcheck::allDone();
  return toStatus(synchronizeAll());
}

MSTAGE_EXPORT int mstage_rt_stream_order_after(mstage_stream *S,
                                               uint64_t OtherId) {
  if (llvm::Error E = checkStreamAlive(S, "using memory"))
    return failWith(std::move(E));
  Stream &Self = streamOf(S);
  if (OtherId == Self.id())
    return 0;
  Stream *Other = findStream(OtherId);
  if (!Other) // gone: its work completed when it was destroyed
    return 0;
  if (streamcheck::on())
    streamcheck::orderedAfter(Self, *Other);
  return toStatus(context(Self.orderAfter(*Other), "ordering streams"));
}

MSTAGE_EXPORT int mstage_rt_event_create(mstage_event **Out) {
  auto *E = new mstage_event;
  if (llvm::Error Err = backend().createEvent(*E)) {
    delete E;
    *Out = nullptr;
    return failWith(
        failureOrFault(std::move(Err), nullptr, "cannot make an event"));
  }
  *Out = E;
  return 0;
}

MSTAGE_EXPORT void mstage_rt_event_destroy(mstage_event *E) {
  if (!E)
    return;
  if (streamcheck::on())
    streamcheck::eventDestroyed(E);
  eventDestroyed(*E); // a coroutine that awaits it fails
  backend().destroyEvent(*E);
  delete E;
}

MSTAGE_EXPORT int mstage_rt_event_record(mstage_event *E, mstage_stream *SP) {
  if (llvm::Error Err = checkStreamAlive(SP, "recording an event"))
    return failWith(std::move(Err));
  Stream &S = streamOf(SP);
  E->StreamId = S.id();
  E->RecordNumber = Records.fetch_add(1, std::memory_order_relaxed) + 1;
  E->CaptureRoot = S.capturing() ? S.captureRoot().id() : 0;
  E->CaptureNumber = S.capturing() ? S.captureNumber() : 0;
  if (streamcheck::on())
    streamcheck::recorded(E, S);
  return backend().recordEvent(*E, S);
}

MSTAGE_EXPORT int mstage_rt_stream_wait_event(mstage_stream *S,
                                              mstage_event *E) {
  if (llvm::Error Err = checkStreamAlive(S, "waiting for an event"))
    return failWith(std::move(Err));
  Stream &Waiting = streamOf(S);
  // Waiting for an event of a capture joins it (a fork, as in CUDA): the
  // stream's work goes into the graph until the capture ends.
  if (E->CaptureRoot && !Waiting.capturing())
    if (Stream *Root = findStream(E->CaptureRoot);
        Root && &Root->captureRoot() == Root && Root->capturing() &&
        Root->captureNumber() == E->CaptureNumber)
      Waiting.joinCapture(*Root);
  if (!E->StreamId)
    return 0; // never recorded: nothing to wait for
  if (streamcheck::on())
    streamcheck::waited(Waiting, E);
  return backend().waitEvent(Waiting, *E);
}

MSTAGE_EXPORT int mstage_rt_event_synchronize(mstage_event *E) {
  if (!E->StreamId)
    return 0;
  NvtxRange Wait("wait event synchronize");
  if (streamcheck::on())
    streamcheck::eventDone(E);
  return backend().synchronizeEvent(*E);
}

MSTAGE_EXPORT int mstage_rt_event_query(mstage_event *E) {
  if (!E->StreamId)
    return 1;
  int Done = backend().queryEvent(*E);
  if (Done == 1 && streamcheck::on()) // the host saw it complete
    streamcheck::eventDone(E);
  return Done;
}

MSTAGE_EXPORT int mstage_rt_event_elapsed(float *Ms, mstage_event *Start,
                                          mstage_event *End) {
  *Ms = 0;
  if (!Start->StreamId || !End->StreamId)
    return failWith(failure("elapsed_ms: an event was never recorded"));
  return backend().elapsedMs(Ms, *Start, *End);
}

MSTAGE_EXPORT void *mstage_rt_event_native(mstage_event *E) {
  turnReplayOff("a native event handle was taken");
  return E->Handle;
}

MSTAGE_EXPORT int mstage_rt_capture_begin(mstage_stream *SP) {
  if (llvm::Error E = checkStreamAlive(SP, "capture"))
    return failWith(std::move(E));
  Stream &S = streamOf(SP);
  if (S.capturing())
    return failWith(failure("capture: stream " + std::to_string(S.id()) +
                            " is already being captured"));
  if (llvm::Error E = backend().beginCapture(S))
    return failWith(context(std::move(E), "capture"));
  S.setCapturing(true);
  if (!CapturedOn[S.device()])
    CapturedOn[S.device()] = &S;
  return 0;
}

MSTAGE_EXPORT mstage_stream *mstage_rt_capture_stream_on(unsigned Device) {
  return Device < MaxDevices
             ? reinterpret_cast<mstage_stream *>(CapturedOn[Device])
             : nullptr;
}

MSTAGE_EXPORT int mstage_rt_capture_end(mstage_stream *SP, mstage_graph **Out) {
  return endCapture(streamOf(SP), Out, /*Instantiate=*/true);
}

MSTAGE_EXPORT int mstage_rt_graph_launch(mstage_graph *G, mstage_stream *SP) {
  if (llvm::Error E = checkStreamAlive(SP, "launching a graph"))
    return failWith(std::move(E));
  Stream &S = streamOf(SP);
  if (streamcheck::on())
    streamcheck::graphLaunched(G, S);
  return backend().launchGraph(*G, S);
}

MSTAGE_EXPORT void mstage_rt_graph_destroy(mstage_graph *G) {
  if (!G)
    return;
  if (streamcheck::on())
    streamcheck::graphDestroyed(G);
  backend().destroyGraph(*G);
  releaseGraphMemory(G->Holds);
  delete G;
}

} // extern "C"
