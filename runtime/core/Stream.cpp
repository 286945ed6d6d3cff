//===- Stream.cpp - Ordered queues of launches, copies and events ---------===//
#include "core/Stream.h"
#include "core/Backend.h"
#include "core/LostContext.h"
#include "core/RuntimeError.h"
#include "inspect/TraceEvents.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

#include <atomic>
#include <cstdlib>
#include <new>
#include <unistd.h>
#include <unordered_map>

namespace mstage::rt {

namespace {

// The kernels a stream names; beyond them, launches are only counted.
constexpr size_t MaxNamedKernels = 16;

struct Registry {
  std::mutex Lock;
  std::unordered_map<uint64_t, Stream *> Live;
  std::vector<Stream *> SpareDefaults; // of threads that have ended
  std::vector<Stream *> Retired;       // destroyed, for the next streams
  std::atomic<uint64_t> NextId{1};
};

Registry &registry() {
  static Registry *R = new Registry; // used until the very end of exit
  return *R;
}

// Set once a kernel fault has been reported: the context keeps failing
// after it, and the exit need not report it again.
std::atomic<bool> FaultReported{false};

// At exit, work still in flight is waited for, so that a kernel's printf
// output and its failure are not lost.
// The process that registered waitAtExit: a fork()ed child has no CUDA
// context of its own, and its parent's streams are not its to wait for.
pid_t AtExitOwner = 0;

void waitAtExit() {
  if (getpid() != AtExitOwner)
    return;
  bool Reported = FaultReported;
  if (llvm::Error E = synchronizeAll()) {
    if (Reported)
      llvm::consumeError(std::move(E));
    else
      warn(std::move(E), " (found at exit)");
  }
}

Stream *registerStream(CUstream Handle, unsigned Device) {
  Registry &R = registry();
  uint64_t Id = R.NextId++;
  std::lock_guard<std::mutex> G(R.Lock);
  Stream *S;
  if (R.Retired.empty()) {
    S = new Stream(Id, Handle, Device, driverOf(Device));
  } else {
    // A destroyed stream's object, made anew: old handles to it see the new
    // id, not theirs.
    S = R.Retired.back();
    R.Retired.pop_back();
    S->~Stream();
    new (S) Stream(Id, Handle, Device, driverOf(Device));
  }
  R.Live.emplace(Id, S);
  return S;
}

llvm::Expected<Stream *> makeStream(unsigned Device) {
  const Backend &B = backend();
  CUstream Handle = nullptr;
  static std::once_flag AtExit;
  if (B.onGpu()) // work still runs after it was enqueued
    std::call_once(AtExit, [] {
      AtExitOwner = getpid();
      std::atexit(waitAtExit);
    });
  if (llvm::Error E = B.createQueue(Device, &Handle))
    return failureOrFault(std::move(E), nullptr, "cannot make a stream");
  return registerStream(Handle, Device);
}

// The thread's current device, plus one: 0 is the default (MSTAGE_DEVICE),
// so that the thread-local needs no dynamic initialization.
thread_local unsigned CurrentDevicePlusOne = 0;

unsigned defaultDevice() { return backend().defaultDevice(); }

// A thread's default streams, one per device it used, go back to the spares
// when the thread ends, for the next thread: their ids stay valid, so
// nothing that refers to them dangles. The pointers themselves outlive the
// guard, for destructors that run after it at exit.
thread_local Stream *ThreadDefaults[MaxDevices] = {};
struct DefaultStreamGuard {
  ~DefaultStreamGuard() {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    for (Stream *S : ThreadDefaults)
      if (S)
        R.SpareDefaults.push_back(S);
  }
};
thread_local DefaultStreamGuard DefaultGuard;

std::string describe(Stream &S) { return "stream " + std::to_string(S.id()); }

} // namespace

std::atomic<bool> AnyHeldWork{false};
HeldWorkFlusher HeldFlusher = nullptr;

void setHeldWorkFlusher(HeldWorkFlusher Flush) { HeldFlusher = Flush; }

void Stream::noteLaunch(const void *Key, const std::string &Name,
                        const std::string &Location, uint64_t Count) {
  if (Stream *Root = JoinedTo)
    return Root->noteLaunch(Key, Name, Location, Count);
  std::lock_guard<std::mutex> G(Lock);
  std::vector<InFlightKernel> &List = Capturing ? Rec.Kernels : InFlight;
  if (!List.empty() && List.back().Key == Key) {
    List.back().Launches += Count;
    return;
  }
  for (InFlightKernel &K : List)
    if (K.Key == Key) {
      K.Launches += Count;
      return;
    }
  if (List.size() >= MaxNamedKernels && !Capturing) {
    OtherLaunches += Count;
    return;
  }
  List.push_back({Key, Name, Location, Count});
}

void Stream::noteLaunches(const std::vector<InFlightKernel> &Kernels) {
  for (const InFlightKernel &K : Kernels)
    noteLaunch(K.Key, K.Name, K.Location, K.Launches);
}

void Stream::forgetLaunches() {
  std::lock_guard<std::mutex> G(Lock);
  InFlight.clear();
  OtherLaunches = 0;
}

std::string Stream::inFlightText() {
  std::lock_guard<std::mutex> G(Lock);
  std::string Text;
  for (const InFlightKernel &K : InFlight) {
    if (!Text.empty())
      Text += "; ";
    Text += "'" + K.Name + "'";
    if (K.Name.find(K.Location) == std::string::npos) // lambdas carry it
      Text += " (" + K.Location + ")";
    Text += ", " + std::to_string(K.Launches) +
            (K.Launches == 1 ? " launch" : " launches");
  }
  if (OtherLaunches)
    Text += "; " + std::to_string(OtherLaunches) + " launches of other kernels";
  return Text;
}

const InFlightKernel *Stream::onlyKernel() {
  std::lock_guard<std::mutex> G(Lock);
  return InFlight.size() == 1 && !OtherLaunches ? &InFlight.front() : nullptr;
}

int Stream::runOrRecord(HostOp Op) {
  Stream &Root = captureRoot();
  {
    std::lock_guard<std::mutex> G(Root.Lock);
    if (Root.Capturing) {
      Root.Rec.Ops.push_back(std::move(Op));
      return 0;
    }
  }
  return Op();
}

void Stream::setCapturing(bool On) {
  std::lock_guard<std::mutex> G(Lock);
  Capturing = On;
  if (On)
    ++CaptureNumber;
  // The streams that joined leave with the end of the capture.
  for (Stream *S : Joined)
    S->JoinedTo = nullptr;
  Joined.clear();
}

void Stream::joinCapture(Stream &Root) {
  assert(Root.Capturing && !capturing() && &Root != this);
  std::lock_guard<std::mutex> G(Root.Lock);
  JoinedTo = &Root;
  Root.Joined.push_back(this);
}

void Stream::leaveCapture() {
  if (!JoinedTo)
    return;
  std::lock_guard<std::mutex> G(JoinedTo->Lock);
  llvm::erase(JoinedTo->Joined, this);
  JoinedTo = nullptr;
}

Recording Stream::takeRecording() {
  std::lock_guard<std::mutex> G(Lock);
  Recording Out = std::move(Rec);
  Rec = Recording();
  return Out;
}

void Stream::retire() {
  llvm::consumeError(enqueueHeldWork("destroying a stream"));
  if (Fence)
    llvm::consumeError(Driver->destroyEvent(Fence));
  Fence = nullptr;
  if (Driver && Handle)
    llvm::consumeError(Driver->destroyStream(Handle));
  Handle = nullptr;
  Id.store(0, std::memory_order_relaxed);
}

llvm::Error Stream::orderAfter(Stream &Other) {
  if (!Driver || !Other.Driver || &Other == this)
    return llvm::Error::success();
  if (llvm::Error E = enqueueHeldWork("ordering streams"))
    return E;
  // The fence is Other's device's; a stream may wait for an event of
  // another device.
  std::lock_guard<std::mutex> G(Other.Lock);
  if (!Other.Fence)
    if (llvm::Error E =
            Other.Driver->createEvent(&Other.Fence, /*Timing=*/false))
      return E;
  if (llvm::Error E = Other.Driver->recordEvent(Other.Fence, Other.Handle))
    return E;
  if (!capturing())
    return Driver->waitEvent(Handle, Other.Fence);
  // A graph cannot depend on work outside it; its replays all come later,
  // so the host waits for that work now.
  CUstreamCaptureMode Mode =
      Driver->relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  llvm::Error E = Other.Driver->synchronizeEvent(Other.Fence);
  Driver->relaxCapture(Mode);
  return E;
}

CudaDriver *driverOf(unsigned Device) { return backend().driver(Device); }

unsigned currentDevice() {
  unsigned D = CurrentDevicePlusOne;
  return D ? D - 1 : defaultDevice();
}

CudaDriver *currentDriver() { return driverOf(currentDevice()); }

std::string checkDevice(unsigned Index) {
  const Backend &B = backend();
  unsigned Count = B.deviceCount();
  if (Index < Count)
    return "";
  return "there is no device " + std::to_string(Index) + ": there " +
         (Count == 1 ? "is 1 device (0)"
                     : "are " + std::to_string(Count) + " devices (0 to " +
                           std::to_string(Count - 1) + ")") +
         (B.onGpu() ? "" : std::string(" on the ") + B.name() + " back end");
}

int setCurrentDevice(unsigned Index) {
  if (!backend().usable())
    return failWith(
        failure("no device can be made current: " + backend().reason()));
  if (std::string Bad = checkDevice(Index); !Bad.empty())
    return failWith(failure("make_current: " + Bad));
  CurrentDevicePlusOne = Index + 1;
  return 0;
}

Stream &currentStreamOn(unsigned Device) {
  if (Stream *S = ThreadDefaults[Device])
    return *S;
  (void)&DefaultGuard; // constructs the guard on this thread
  Stream *&Slot = ThreadDefaults[Device];
  Registry &R = registry();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    for (auto It = R.SpareDefaults.begin(); It != R.SpareDefaults.end(); ++It)
      if ((*It)->device() == Device) {
        Slot = *It;
        R.SpareDefaults.erase(It);
        return *Slot;
      }
  }
  bool Reported = FaultReported; // before the failure reports a fault
  llvm::Expected<Stream *> Made = makeStream(Device);
  if (!Made) {
    // Without a stream of its own, the thread uses the legacy default
    // stream, which is always there; the failure shows at the first
    // operation that needs more. After a reported kernel fault the context
    // is unusable, which is why: no line of its own (a coroutine that the
    // fault resumed on the await thread frees its memory there, on that
    // thread's first stream).
    if (Reported)
      llvm::consumeError(Made.takeError());
    else
      warn(Made.takeError(), "; using the legacy default stream");
    Slot = registerStream(nullptr, Device);
  } else {
    Slot = *Made;
  }
  return *Slot;
}

Stream &currentStream() { return currentStreamOn(currentDevice()); }

Stream &streamOf(mstage_stream *S) {
  return S ? *reinterpret_cast<Stream *>(S) : currentStream();
}

Stream *createStream(unsigned Device) {
  if (!backend().usable()) {
    failWith(failure("cannot make a stream: " + backend().reason()));
    return nullptr;
  }
  if (std::string Bad = checkDevice(Device); !Bad.empty()) {
    failWith(failure("cannot make a stream: " + Bad));
    return nullptr;
  }
  llvm::Expected<Stream *> S = makeStream(Device);
  if (!S) {
    failWith(S.takeError());
    return nullptr;
  }
  return *S;
}

void destroyStream(Stream *S) {
  if (!S)
    return;
  if (S->capturing())
    warn(describe(*S) + " is destroyed while it is captured into a graph");
  else if (llvm::Error E = synchronizeStream(*S))
    warn(std::move(E), " (reported by the stream's destructor)");
  S->leaveCapture();
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Live.erase(S->id());
  S->retire();
  R.Retired.push_back(S);
}

llvm::Error checkStreamAlive(mstage_stream *S, const std::string &What,
                             RuntimeFailure::Join How, uint64_t Id) {
  if (!S)
    return llvm::Error::success();
  uint64_t Now = reinterpret_cast<Stream *>(S)->id();
  if (Now != 0 && (Id == 0 || Now == Id))
    return llvm::Error::success();
  return failure(What + " on a stream that was destroyed; a stream must "
                        "outlive its use (a kernel bound to it with on(), a "
                        "stream_ref to it)",
                 How);
}

Stream *findStream(uint64_t Id) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Live.find(Id);
  return It == R.Live.end() ? nullptr : It->second;
}

llvm::Error asyncFailure(llvm::Error Failure, Stream *S,
                         const std::string &What) {
  FaultReported = true;
  // One kernel in flight is the one that failed.
  if (const InFlightKernel *K = S ? S->onlyKernel() : nullptr)
    return withKernel(context(std::move(Failure),
                              "failed (" + std::to_string(K->Launches) +
                                  (K->Launches == 1 ? " launch" : " launches") +
                                  " in flight, found when " + What + ")",
                              RuntimeFailure::Join::Clause),
                      K->Name);
  std::string Kernels;
  if (S) {
    Kernels = S->inFlightText();
  } else {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    for (auto &[Id, Live] : R.Live)
      if (std::string T = Live->inFlightText(); !T.empty())
        Kernels += (Kernels.empty() ? "" : "; ") + T + " on " + describe(*Live);
  }
  std::string After;
  if (Kernels.empty()) {
    After = "; no kernel of this stream was in flight: the fault is "
            "from earlier work, and the GPU context is unusable after it";
  } else {
    After = "; kernels in flight since the last synchronization: " + Kernels;
    if (!launchBlockingSetting().Value)
      After += "; MSTAGE_LAUNCH_BLOCKING=1 names the kernel that failed";
  }
  return updateFailure(context(std::move(Failure), What),
                       [&](RuntimeFailure &F) { F.Message += After; });
}

llvm::Error synchronizeStream(Stream &S) {
  if (S.capturing())
    return failure("cannot wait for " + describe(S) +
                   " while it is captured into a graph (a download, get(), a "
                   "std::vector& argument or synchronize() inside "
                   "mstage::capture); use device_vector arguments and read "
                   "results after the capture");
  if (!S.driver())
    return llvm::Error::success();
  if (llvm::Error E = enqueueHeldWork("waiting for a stream"))
    return E;
  llvm::Error E = S.driver()->synchronizeStream(S.handle());
  collectGpuSpans();
  if (E)
    E = asyncFailure(std::move(E), &S, "waiting for " + describe(S));
  S.forgetLaunches(); // once reported, they are no longer in flight
  return E;
}

llvm::Error synchronizeAll() {
  const Backend &B = backend();
  if (!B.onGpu()) // the host back ends' work is done when it is enqueued
    return llvm::Error::success();
  if (llvm::Error E = enqueueHeldWork("waiting for all streams"))
    return E;
  llvm::Error First = B.synchronizeDevices();
  collectGpuSpans();
  if (First)
    First = asyncFailure(std::move(First), nullptr, "waiting for all streams");
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (auto &[Id, Live] : R.Live)
    Live->forgetLaunches();
  return First;
}

} // namespace mstage::rt
