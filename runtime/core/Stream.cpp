//===- Stream.cpp - Ordered queues of launches, copies and events ---------===//
#include "core/Stream.h"
#include "core/Backend.h"
#include "core/HotTls.h"
#include "core/RuntimeError.h"
#include "inspect/TraceEvents.h"
#include "support/Settings.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <unordered_map>

namespace mstage::rt {

namespace {

// The kernels a stream names; beyond them, launches are only counted.
constexpr size_t MaxNamedKernels = 16;

struct Registry {
  std::mutex Lock;
  std::unordered_map<uint64_t, Stream *> Live;
  std::vector<Stream *> SpareDefaults; // of threads that have ended
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
void waitAtExit() {
  bool Reported = FaultReported;
  if (std::string Err = synchronizeAll(); !Err.empty() && !Reported)
    llvm::errs() << Err << " (found at exit)\n";
}

Stream *registerStream(CUstream Handle, unsigned Device) {
  Registry &R = registry();
  auto *S = new Stream(R.NextId++, Handle, Device, driverOf(Device));
  std::lock_guard<std::mutex> G(R.Lock);
  R.Live.emplace(S->id(), S);
  return S;
}

Stream *makeStream(unsigned Device, std::string &Why) {
  const Backend &B = backend();
  CUstream Handle = nullptr;
  static std::once_flag AtExit;
  if (B.Kind == BackendKind::Gpu)
    std::call_once(AtExit, [] { std::atexit(waitAtExit); });
  if (B.Kind == BackendKind::Gpu)
    if (Status S = driverOf(Device)->createStream(&Handle); !S) {
      Why = "mstage: cannot make a stream: " + S.Message;
      return nullptr;
    }
  return registerStream(Handle, Device);
}

// The thread's current device, plus one: 0 is the default (MSTAGE_DEVICE),
// so that the thread-local needs no dynamic initialization.
MSTAGE_HOT_TLS thread_local unsigned CurrentDevicePlusOne = 0;

unsigned defaultDevice() {
  const Backend &B = backend();
  return B.Kind == BackendKind::Gpu ? B.Driver->index() : 0;
}

// A thread's default streams, one per device it used, go back to the spares
// when the thread ends, for the next thread: their ids stay valid, so
// nothing that refers to them dangles. The pointers themselves outlive the
// guard, for destructors that run after it at exit.
MSTAGE_HOT_TLS thread_local Stream *ThreadDefaults[MaxDevices] = {};
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

std::string describe(Stream &S) {
  return "stream " + std::to_string(S.id());
}

} // namespace

void Stream::noteLaunch(const void *Key, const std::string &Name,
                        const std::string &Location, uint64_t Count) {
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
    Text += "; " + std::to_string(OtherLaunches) +
            " launches of other kernels";
  return Text;
}

const InFlightKernel *Stream::onlyKernel() {
  std::lock_guard<std::mutex> G(Lock);
  return InFlight.size() == 1 && !OtherLaunches ? &InFlight.front() : nullptr;
}

int Stream::runOrRecord(HostOp Op) {
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Capturing) {
      Rec.Ops.push_back(std::move(Op));
      return 0;
    }
  }
  return Op();
}

void Stream::setCapturing(bool On) {
  std::lock_guard<std::mutex> G(Lock);
  Capturing = On;
}

Recording Stream::takeRecording() {
  std::lock_guard<std::mutex> G(Lock);
  Recording Out = std::move(Rec);
  Rec = Recording();
  return Out;
}

Status Stream::orderAfter(Stream &Other) {
  if (!Driver || !Other.Driver || &Other == this)
    return Status::success();
  // The fence is Other's device's; a stream may wait for an event of
  // another device.
  std::lock_guard<std::mutex> G(Other.Lock);
  if (!Other.Fence)
    if (Status S = Other.Driver->createEvent(&Other.Fence, /*Timing=*/false);
        !S)
      return S;
  if (Status S = Other.Driver->recordEvent(Other.Fence, Other.Handle); !S)
    return S;
  if (!Capturing)
    return Driver->waitEvent(Handle, Other.Fence);
  // A graph cannot depend on work outside it; its replays all come later,
  // so the host waits for that work now.
  CUstreamCaptureMode Mode =
      Driver->relaxCapture(CU_STREAM_CAPTURE_MODE_RELAXED);
  Status S = Other.Driver->synchronizeEvent(Other.Fence);
  Driver->relaxCapture(Mode);
  return S;
}

CudaDriver *driverOf(unsigned Device) {
  return backend().Kind == BackendKind::Gpu ? CudaDriver::at(Device) : nullptr;
}

unsigned currentDevice() {
  unsigned D = CurrentDevicePlusOne;
  return D ? D - 1 : defaultDevice();
}

CudaDriver *currentDriver() { return driverOf(currentDevice()); }

std::string checkDevice(unsigned Index) {
  unsigned Count = deviceCount();
  if (Index < Count)
    return "";
  const Backend &B = backend();
  return "there is no device " + std::to_string(Index) + ": there " +
         (Count == 1 ? "is 1 device (0)"
                     : "are " + std::to_string(Count) + " devices (0 to " +
                           std::to_string(Count - 1) + ")") +
         (B.Kind == BackendKind::Gpu
              ? ""
              : std::string(" on the ") + backendName(B.Kind) + " back end");
}

int setCurrentDevice(unsigned Index) {
  if (backend().Kind == BackendKind::Unavailable)
    return fail("mstage: no device can be made current: " + backend().Reason);
  if (std::string Bad = checkDevice(Index); !Bad.empty())
    return fail("mstage: make_current: " + Bad);
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
  std::string Why;
  Slot = makeStream(Device, Why);
  if (!Slot) {
    // Without a stream of its own, the thread uses the legacy default
    // stream, which is always there; the failure shows at the first
    // operation that needs more.
    llvm::errs() << Why << "; using the legacy default stream\n";
    Slot = registerStream(nullptr, Device);
  }
  return *Slot;
}

Stream &currentStream() { return currentStreamOn(currentDevice()); }

Stream &streamOf(mstage_stream *S) {
  return S ? *reinterpret_cast<Stream *>(S) : currentStream();
}

Stream *createStream(unsigned Device) {
  if (backend().Kind == BackendKind::Unavailable) {
    fail("mstage: cannot make a stream: " + backend().Reason);
    return nullptr;
  }
  if (std::string Bad = checkDevice(Device); !Bad.empty()) {
    fail("mstage: cannot make a stream: " + Bad);
    return nullptr;
  }
  std::string Why;
  Stream *S = makeStream(Device, Why);
  if (!S)
    fail(Why);
  return S;
}

void destroyStream(Stream *S) {
  if (!S)
    return;
  if (S->capturing())
    llvm::errs() << "mstage: " << describe(*S)
                 << " is destroyed while it is captured into a graph\n";
  else if (std::string Err = synchronizeStream(*S); !Err.empty())
    llvm::errs() << Err << " (reported by the stream's destructor)\n";
  {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    R.Live.erase(S->id());
  }
  if (S->driver() && S->handle())
    S->driver()->destroyStream(S->handle());
  delete S;
}

Stream *findStream(uint64_t Id) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Live.find(Id);
  return It == R.Live.end() ? nullptr : It->second;
}

std::string asyncFailure(const Status &Failure, Stream *S,
                         const std::string &What) {
  FaultReported = true;
  // One kernel in flight is the one that failed.
  if (const InFlightKernel *K = S ? S->onlyKernel() : nullptr)
    return "mstage: kernel '" + K->Name + "' failed (" +
           std::to_string(K->Launches) +
           (K->Launches == 1 ? " launch" : " launches") +
           " in flight, found when " + What + "): " + Failure.Message;
  std::string Message = "mstage: " + What + ": " + Failure.Message;
  std::string Kernels;
  if (S) {
    Kernels = S->inFlightText();
  } else {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    for (auto &[Id, Live] : R.Live)
      if (std::string T = Live->inFlightText(); !T.empty())
        Kernels += (Kernels.empty() ? "" : "; ") + T + " on " +
                   describe(*Live);
  }
  if (Kernels.empty()) {
    Message += "; no kernel of this stream was in flight: the fault is "
               "from earlier work, and the GPU context is unusable after it";
    return Message;
  }
  Message += "; kernels in flight since the last synchronization: " + Kernels;
  if (!launchBlockingSetting().Value)
    Message += "; MSTAGE_LAUNCH_BLOCKING=1 names the kernel that failed";
  return Message;
}

std::string synchronizeStream(Stream &S) {
  if (S.capturing())
    return "mstage: cannot wait for " + describe(S) +
           " while it is captured into a graph (a download, get(), a "
           "std::vector& argument or synchronize() inside mstage::capture); "
           "use device_vector arguments and read results after the capture";
  if (!S.driver())
    return "";
  Status St = S.driver()->synchronizeStream(S.handle());
  collectGpuSpans();
  std::string Err;
  if (!St)
    Err = asyncFailure(St, &S, "waiting for " + describe(S));
  S.forgetLaunches(); // once reported, they are no longer in flight
  return Err;
}

std::string synchronizeAll() {
  const Backend &B = backend();
  if (B.Kind != BackendKind::Gpu)
    return "";
  // Every device that some thread used; the first failure is reported.
  Status St;
  for (unsigned I = 0, N = CudaDriver::count(); I < N; ++I)
    if (CudaDriver *D = CudaDriver::at(I); D->used())
      if (Status DS = D->synchronize(); !DS && St)
        St = DS;
  collectGpuSpans();
  std::string Err;
  if (!St)
    Err = asyncFailure(St, nullptr, "waiting for all streams");
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (auto &[Id, Live] : R.Live)
    Live->forgetLaunches();
  return Err;
}

} // namespace mstage::rt
