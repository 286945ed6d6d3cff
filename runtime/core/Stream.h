//===- Stream.h - Ordered queues of launches, copies and events -*- C++ -*-===//
//
// A Stream is a CUDA stream on a GPU, and belongs to one device: what is
// enqueued on it runs there. On the CPU back end and in PTX-only
// mode it is an order of host operations that run as they are enqueued, so
// that work on one stream is in order there too, and every wait is already
// satisfied. While a stream is captured into a graph, its host operations
// are recorded instead (the GPU's are recorded by the driver).
//
// Each stream keeps the kernels launched on it since it last completed: a
// kernel fault surfaces at the next synchronizing call, which names them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_STREAM_H
#define MSTAGE_RUNTIME_CORE_STREAM_H

#include "cuda/CudaDriver.h"
#include "support/RuntimeFailure.h"

#include "mstage/abi.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mstage::rt {

struct BuiltGraph;

// A host operation: returns 0, or the status of failWith().
using HostOp = std::function<int()>;

// One kernel among those in flight, with how many of its launches are.
struct InFlightKernel {
  const void *Key = nullptr;
  std::string Name, Location;
  uint64_t Launches = 0;
};

// What a capture recorded, to make a graph of.
struct Recording {
  std::vector<HostOp> Ops;             // off the GPU: replayed in order
  std::vector<void *> Frees;           // freed with the graph (GraphMemory.h)
  std::vector<void *> Allocs;          // made in the capture, not freed yet
  std::vector<void *> Uses;            // device_vectors the work uses
  std::vector<InFlightKernel> Kernels; // named when a replay faults
};

class Stream {
public:
  Stream(uint64_t Id, CUstream Handle, unsigned Device, CudaDriver *Driver)
      : Id(Id), Handle(Handle), Device(Device), Driver(Driver) {}

  // 0 once destroyed: the object is kept (and reused for a later stream,
  // with a new id), so that a handle to a destroyed stream can be told from
  // a live one instead of reading freed memory.
  uint64_t id() const { return Id.load(std::memory_order_relaxed); }
  bool alive() const { return id() != 0; }
  void retire();
  CUstream handle() const { return Handle; } // null off the GPU
  unsigned device() const { return Device; }
  CudaDriver *driver() const { return Driver; } // null off the GPU

  // Kernels in flight (or recorded, while captured).
  void noteLaunch(const void *Key, const std::string &Name,
                  const std::string &Location, uint64_t Count = 1);
  void noteLaunches(const std::vector<InFlightKernel> &Kernels);
  void forgetLaunches();
  // "'a' (f.cpp:3:9), 99 launches; 'b' (f.cpp:7:5), 1 launch", or "".
  std::string inFlightText();
  // The kernel in flight when it is the only one (any number of launches),
  // else null.
  const InFlightKernel *onlyKernel();

  // Off the GPU: runs Op now, or records it while the stream is captured.
  int runOrRecord(HostOp Op);

  // Capture. Capturing is set between begin and end; Rec collects. A
  // stream that waits for an event recorded in a capture joins it, as in
  // CUDA: its work goes into the captured stream's recording until the
  // capture ends.
  bool capturing() const { return Capturing || JoinedTo; }
  void setCapturing(bool On);
  // The captured stream whose recording this one's work goes into.
  Stream &captureRoot() { return JoinedTo ? *JoinedTo : *this; }
  // Which capture of captureRoot() this is (events recorded in it say).
  uint64_t captureNumber() { return captureRoot().CaptureNumber; }
  void joinCapture(Stream &Root);
  void leaveCapture(); // when destroyed while joined
  Recording takeRecording();
  Recording &recording() { return captureRoot().Rec; }

  // The stream waits for everything enqueued on Other so far (GPU only).
  llvm::Error orderAfter(Stream &Other);

private:
  std::atomic<uint64_t> Id;
  CUstream Handle;
  unsigned Device;
  CudaDriver *Driver;
  std::mutex Lock; // InFlight, Rec
  std::vector<InFlightKernel> InFlight;
  uint64_t OtherLaunches = 0; // beyond the kernels InFlight names
  bool Capturing = false;
  uint64_t CaptureNumber = 0;   // counts the captures begun
  Stream *JoinedTo = nullptr;   // the captured stream this one joined
  std::vector<Stream *> Joined; // the streams that joined this capture
  Recording Rec;
  CUevent Fence = nullptr; // for orderAfter, made on first use
};

// The calling thread's current device (MSTAGE_DEVICE until it chooses one),
// and its choice; setCurrentDevice fails (failWith()) for a device that does
// not exist.
unsigned currentDevice();
int setCurrentDevice(unsigned Index);
// The driver of a device (null off the GPU), and of the current device.
CudaDriver *driverOf(unsigned Device);
CudaDriver *currentDriver();
// "there is no device 2: there are 2 (0 and 1)", or "" when Index exists.
std::string checkDevice(unsigned Index);

// The calling thread's current stream: its default stream on its current
// device, made on first use. Never null.
Stream &currentStream();
// The calling thread's default stream on Device, which must exist.
Stream &currentStreamOn(unsigned Device);
// The stream behind a C ABI handle; null is the current stream.
Stream &streamOf(mstage_stream *S);
// A new stream on Device, or null with the reason recorded (failWith()).
Stream *createStream(unsigned Device);
// Waits for S, reports a failure on stderr (destructors cannot throw), and
// frees it.
void destroyStream(Stream *S);
// The live stream with this id, or null (its work completed when it went).
Stream *findStream(uint64_t Id);
// A failure when S is the handle of a destroyed stream: What (the operation,
// "recording an event") on it would use freed CUDA objects. With an Id (S's
// when it was bound), also when S's object now holds a newer stream.
llvm::Error
checkStreamAlive(mstage_stream *S, const std::string &What,
                 RuntimeFailure::Join How = RuntimeFailure::Join::Colon,
                 uint64_t Id = 0);

// Launches held back to be replayed as a graph (replay/, MSTAGE_GRAPHS=auto)
// are enqueued, on every stream, by enqueueHeldWork() before any other
// operation reaches the driver: holding back never lets the host or another
// stream see work done earlier than it would have been. Why: what asks
// ("copying to the host"), for the trace and for a failure, which names the
// kernels in flight (asyncFailure). Unloading: a module is unloaded,
// and graphs that may launch its functions must go.
using HeldWorkFlusher = llvm::Error (*)(const char *Why, bool Unloading);
// Set by replay/ before it first holds a launch; it sets AnyHeldWork while
// a stream holds launches.
void setHeldWorkFlusher(HeldWorkFlusher Flush);
extern std::atomic<bool> AnyHeldWork;
extern HeldWorkFlusher HeldFlusher;
inline llvm::Error enqueueHeldWork(const char *Why, bool Unloading = false) {
  if (!AnyHeldWork.load(std::memory_order_acquire))
    return llvm::Error::success();
  return HeldFlusher(Why, Unloading);
}

// Waits for S. A failure names the kernels that were in flight on S.
llvm::Error synchronizeStream(Stream &S);
// Waits for all work of the process, on every device; the error names the
// kernels in flight on every stream.
llvm::Error synchronizeAll();
// A driver's Failure that surfaced asynchronously on S (null: any stream),
// said with What, and the kernels in flight.
llvm::Error asyncFailure(llvm::Error Failure, Stream *S,
                         const std::string &What);

} // namespace mstage::rt

// The C ABI's events and graphs (runtime/StreamApi.cpp); the back end
// (core/Backend.h) records, waits for and replays them.
struct mstage_event {
  CUevent Handle = nullptr;                 // GPU
  mstage::rt::CudaDriver *Driver = nullptr; // the device of Handle
  uint64_t StreamId = 0; // where it was last recorded; 0: never
  // The process's count of records at the last: one stream's events
  // complete in this order (the await thread asks only about the first).
  uint64_t RecordNumber = 0;
  // Recorded in a capture: its stream, and which capture of it. A stream
  // that waits for the event joins that capture.
  uint64_t CaptureRoot = 0, CaptureNumber = 0;
  // Off the GPU: when it was recorded; shared with a capture's recorded
  // operation, which may replay after the event is gone.
  std::shared_ptr<std::chrono::steady_clock::time_point> Time =
      std::make_shared<std::chrono::steady_clock::time_point>();
};

struct mstage_graph {
  mstage::rt::CudaDriver *Driver = nullptr; // the captured stream's device
  CUgraph Graph = nullptr;
  CUgraphExec Exec = nullptr;
  mstage::rt::Recording Rec; // off the GPU: the operations; on it: kernels
  std::vector<void *> Holds; // memory kept for it (GraphMemory.h)
  // A graph_builder's executable graph: what it keeps (core/GraphNodes.h).
  std::shared_ptr<mstage::rt::BuiltGraph> Built;
};

#endif
