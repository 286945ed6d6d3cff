//===- StreamApi.cpp - The C ABI of streams, events and graphs ------------===//
//
// On a GPU each is its CUDA object, of the device of the stream it is used
// on (an event is remade on a stream's device when recorded there). Off the GPU
// work runs as it is enqueued: an event completes when it is recorded (its time
// is the host's clock then), and a graph is the list of host operations its
// capture recorded, replayed in order.
//
//===----------------------------------------------------------------------===//
#include "GraphMemory.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "support/Export.h"

#include "mstage/abi.h"

#include <chrono>
#include <cstdlib>
#include <memory>

using namespace mstage::rt;

struct mstage_event {
  CUevent Handle = nullptr;     // GPU
  CudaDriver *Driver = nullptr; // the device of Handle
  uint64_t StreamId = 0;        // where it was last recorded; 0: never
  // Recorded in a capture: its stream, and which capture of it. A stream
  // that waits for the event joins that capture.
  uint64_t CaptureRoot = 0, CaptureNumber = 0;
  // Off the GPU: when it was recorded; shared with a capture's recorded
  // operation, which may replay after the event is gone.
  std::shared_ptr<std::chrono::steady_clock::time_point> Time =
      std::make_shared<std::chrono::steady_clock::time_point>();
};

struct mstage_graph {
  CudaDriver *Driver = nullptr; // the captured stream's device
  CUgraph Graph = nullptr;
  CUgraphExec Exec = nullptr;
  Recording Rec; // off the GPU: the operations; on it: the kernels
  std::vector<void *> Holds; // memory kept for it (GraphMemory.h)
};

namespace {

bool onGpu() { return backend().Kind == BackendKind::Gpu; }

// The stream the thread captures on each device, for memory made then.
thread_local Stream *CapturedOn[MaxDevices] = {};

} // namespace

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
  if (llvm::Error E = checkStreamAlive(S, "synchronize()"))
    return failWith(std::move(E));
  return toStatus(synchronizeStream(streamOf(S)));
}

MSTAGE_EXPORT int mstage_rt_stream_capturing(mstage_stream *S) {
  return streamOf(S).capturing() ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_synchronize(void) {
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
  return toStatus(context(Self.orderAfter(*Other), "ordering streams"));
}

MSTAGE_EXPORT int mstage_rt_event_create(mstage_event **Out) {
  auto *E = new mstage_event;
  E->Driver = currentDriver();
  if (E->Driver)
    if (llvm::Error Err = E->Driver->createEvent(&E->Handle)) {
      delete E;
      *Out = nullptr;
      return failWith(context(std::move(Err), "cannot make an event"));
    }
  *Out = E;
  return 0;
}

MSTAGE_EXPORT void mstage_rt_event_destroy(mstage_event *E) {
  if (!E)
    return;
  if (E->Handle)
    llvm::consumeError(E->Driver->destroyEvent(E->Handle));
  delete E;
}

MSTAGE_EXPORT int mstage_rt_event_record(mstage_event *E, mstage_stream *SP) {
  if (llvm::Error Err = checkStreamAlive(SP, "recording an event"))
    return failWith(std::move(Err));
  Stream &S = streamOf(SP);
  E->StreamId = S.id();
  E->CaptureRoot = S.capturing() ? S.captureRoot().id() : 0;
  E->CaptureNumber = S.capturing() ? S.captureNumber() : 0;
  if (onGpu()) {
    // An event is recorded on a stream of its own device: one of another
    // device is remade here.
    if (E->Driver != S.driver()) {
      CUevent Handle = nullptr;
      if (llvm::Error Err = S.driver()->createEvent(&Handle))
        return failWith(context(std::move(Err), "recording an event"));
      llvm::consumeError(E->Driver->destroyEvent(E->Handle));
      E->Handle = Handle;
      E->Driver = S.driver();
    }
    return toStatus(context(E->Driver->recordEvent(E->Handle, S.handle()),
                            "recording an event"));
  }
  return S.runOrRecord([Time = E->Time] {
    *Time = std::chrono::steady_clock::now();
    return 0;
  });
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
  if (!onGpu() || !E->StreamId)
    return 0; // off the GPU, recorded work is done; unrecorded: no wait
  // A stream may wait for an event of another device.
  return toStatus(
      context(Waiting.driver()->waitEvent(Waiting.handle(), E->Handle),
              "waiting for an event"));
}

MSTAGE_EXPORT int mstage_rt_event_synchronize(mstage_event *E) {
  if (!onGpu() || !E->StreamId)
    return 0;
  llvm::Error Err = E->Driver->synchronizeEvent(E->Handle);
  if (!Err)
    return 0;
  return failWith(asyncFailure(std::move(Err), findStream(E->StreamId),
                               "waiting for an event"));
}

MSTAGE_EXPORT int mstage_rt_event_query(mstage_event *E) {
  if (!onGpu() || !E->StreamId)
    return 1;
  CUresult R = E->Driver->queryEvent(E->Handle);
  if (R == CUDA_SUCCESS)
    return 1;
  if (R == CUDA_ERROR_NOT_READY)
    return 0;
  failWith(asyncFailure(cudaFailure(R, E->Driver->errorText(R, "cuEventQuery")),
                        findStream(E->StreamId), "waiting for an event"));
  return -1;
}

MSTAGE_EXPORT int mstage_rt_event_elapsed(float *Ms, mstage_event *Start,
                                          mstage_event *End) {
  *Ms = 0;
  if (!Start->StreamId || !End->StreamId)
    return failWith(failure("elapsed_ms: an event was never recorded"));
  if (onGpu()) {
    if (Start->Driver != End->Driver)
      return failWith(failure("elapsed_ms: the events were recorded on " +
                              Start->Driver->shortName() + " and " +
                              End->Driver->shortName() +
                              "; time events of one device"));
    return toStatus(
        context(Start->Driver->elapsedMs(Ms, Start->Handle, End->Handle),
                "elapsed_ms"));
  }
  *Ms = std::chrono::duration<float, std::milli>(*End->Time - *Start->Time)
            .count();
  return 0;
}

MSTAGE_EXPORT void *mstage_rt_event_native(mstage_event *E) {
  return E->Handle;
}

MSTAGE_EXPORT int mstage_rt_capture_begin(mstage_stream *SP) {
  if (llvm::Error E = checkStreamAlive(SP, "capture"))
    return failWith(std::move(E));
  Stream &S = streamOf(SP);
  if (S.capturing())
    return failWith(failure("capture: stream " + std::to_string(S.id()) +
                            " is already being captured"));
  if (onGpu()) {
    // The memory pool is made now if it is not there yet: making it is not
    // allowed while a stream of the thread is captured.
    // (A pool that cannot be made fails the first allocation, which says so.)
    llvm::consumeError(S.driver()->makePool());
    if (llvm::Error E = S.driver()->beginCapture(S.handle()))
      return failWith(context(std::move(E), "capture"));
  }
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
  Stream &S = streamOf(SP);
  if (Out)
    *Out = nullptr;
  if (!S.capturing())
    return failWith(failure("capture: stream " + std::to_string(S.id()) +
                            " is not being captured"));
  S.setCapturing(false);
  if (CapturedOn[S.device()] == &S)
    CapturedOn[S.device()] = nullptr;
  auto G = std::make_unique<mstage_graph>();
  G->Rec = S.takeRecording();
  G->Driver = S.driver();
  std::string Escaped;
  G->Holds = holdGraphMemory(G->Rec, Escaped);
  if (onGpu()) {
    llvm::Error E = G->Driver->endCapture(S.handle(), &G->Graph);
    if (!E && Out && Escaped.empty())
      E = G->Driver->instantiate(G->Graph, &G->Exec);
    if (E) {
      mstage_rt_graph_destroy(G.release());
      return failWith(context(std::move(E), "capture"));
    }
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

MSTAGE_EXPORT int mstage_rt_graph_launch(mstage_graph *G, mstage_stream *SP) {
  if (llvm::Error E = checkStreamAlive(SP, "launching a graph"))
    return failWith(std::move(E));
  Stream &S = streamOf(SP);
  if (onGpu()) {
    if (S.driver() != G->Driver)
      return failWith(
          failure("launching a graph captured on " + G->Driver->shortName() +
                  " on a stream of " + S.driver()->shortName() +
                  "; a graph runs on the device it was captured on"));
    if (llvm::Error E = G->Driver->launchGraph(G->Exec, S.handle()))
      return failWith(asyncFailure(std::move(E), &S, "launching a graph"));
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
  if (G->Driver)
    G->Driver->destroyGraph(G->Graph, G->Exec);
  releaseGraphMemory(G->Holds);
  delete G;
}

} // extern "C"
