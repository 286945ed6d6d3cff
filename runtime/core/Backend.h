//===- Backend.h - Where launches go: a GPU, the CPU, PTX only, nowhere ---===//
//
// One interface for every back end, declared here so that the rooms below
// the back ends call it; each back end implements it in its own room above
// (runtime/backends/cuda, cpu, ptx, and the unavailable one). Exactly one is
// made per process, by backends/ChooseBackend.cpp from MSTAGE_BACKEND and
// MSTAGE_ARCH, which hands its chooser to setBackendChooser() before main;
// backend() calls it on first use.
//
// What does not differ by more than a word is a trait, fixed when the back
// end is made and read without a call (the launch path reads them); what
// differs in behaviour is a virtual function. Memory and stream operations
// of the host back ends (CPU, PTX-only) run in the stream's order at once,
// or are recorded while the stream is captured (core/Stream.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_BACKEND_H
#define MSTAGE_RUNTIME_CORE_BACKEND_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "cuda/LaunchKind.h"
#include "mstage/abi.h"

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace mstage::rt {

class CudaDriver;
class GraphNodes;
class Stream;
struct LaunchLimits;
struct RegisteredKernel;

// What a back end is, beyond its behaviour: set by its constructor.
struct BackendTraits {
  const char *Name = "none"; // as mstage_rt_backend() gives it
  bool Usable = false;       // false: every operation fails with Reason
  bool Executes = false;     // kernels run (the GPU, the CPU)
  bool Compiles = false; // kernels are JIT-compiled for Arch (GPU, PTX-only)
  bool OnGpu = false;    // memory, streams, events and graphs are a GPU's, and
                         // work on a stream runs after it is enqueued
};

class Backend {
public:
  virtual ~Backend() = default;
  Backend(const Backend &) = delete;
  Backend &operator=(const Backend &) = delete;

  //===--- What it is -----------------------------------------------------===//
  // "cuda", "cpu", "ptx", "none"
  const char *name() const { return Traits.Name; }
  bool usable() const { return Traits.Usable; }
  bool executes() const { return Traits.Executes; }
  bool compiles() const { return Traits.Compiles; }
  bool onGpu() const { return Traits.OnGpu; }
  // Kernels run as their host-compiled bodies: nothing is compiled (the CPU).
  bool runsHostBodies() const { return Traits.Executes && !Traits.Compiles; }
  // Compiled code is loaded on a device and launched there (the GPU).
  bool loadsCode() const { return Traits.Compiles && Traits.Executes; }
  // What kernels are compiled for ("sm_90"; "" when nothing is compiled).
  const std::string &arch() const { return ArchText; }
  // The kernel-parameter space of arch() in bytes (CaptureInMemory.h): a
  // launch's parameters beyond it are read from device memory.
  uint64_t paramLimit() const { return ParamLimit; }
  // Why there is no GPU (PTX-only, the CPU chosen by auto), or why nothing
  // can run (not usable()).
  const std::string &reason() const { return ReasonText; }

  // Starts what the back end needs (the compile pool, ahead-of-time code);
  // called once by the choice, before backend() returns it.
  virtual void start() const {}

  //===--- Devices --------------------------------------------------------===//
  // The devices launches may go to: the GPUs, or the one of the CPU back end
  // and of PTX-only mode; 0 when not usable().
  virtual unsigned deviceCount() const = 0;
  // Whether there is more than one device, asked once: the launch path reads
  // it (with one device no pointer can be another device's memory).
  bool severalDevices() const {
    int Several = SeveralDevices.load(std::memory_order_relaxed);
    if (Several < 0) {
      Several = deviceCount() > 1;
      SeveralDevices.store(Several, std::memory_order_relaxed);
    }
    return Several;
  }
  // The device a thread starts on (MSTAGE_DEVICE on a GPU).
  virtual unsigned defaultDevice() const = 0;
  // The driver of a device that exists; null off the GPU.
  virtual CudaDriver *driver(unsigned Device) const = 0;
  // mstage_rt_device_properties of Device, which exists.
  void describe(unsigned Device, mstage_device_properties &P) const;
  // The launch shapes launches are held to (core/LaunchLimits.h keeps them).
  virtual LaunchLimits limits() const = 0;
  // How many blocks of Config one multiprocessor runs at once. Code makes
  // (or finds) the launch's specialization, with a module to unload after
  // when it was not cached; its errors come back as they are, the back
  // end's own name Kernel.
  using CodeMaker =
      llvm::function_ref<llvm::Error(CUfunction &Function, CUmodule &Owned)>;
  virtual llvm::Error occupancy(CodeMaker Code,
                                const mstage_launch_config &Config,
                                const char *Kernel, int *Blocks) const = 0;

  //===--- Memory (runtime/Memory.cpp) ------------------------------------===//
  // Device memory of Device; host memory, 256-byte aligned, off the GPU.
  virtual llvm::Error alloc(size_t Bytes, unsigned Device,
                            void **Ptr) const = 0;
  // Frees Ptr, of device Owner (the allocation map's, or NoDevice: the
  // current one), which the map has already forgotten.
  virtual llvm::Error free(void *Ptr, int Owner) const = 0;
  virtual llvm::Error copyToDevice(void *Dst, const void *Src,
                                   size_t Bytes) const = 0;
  virtual llvm::Error copyToHost(void *Dst, const void *Src,
                                 size_t Bytes) const = 0;
  // Page-locked host memory, and memory usable on host and device; on the
  // current device's driver.
  virtual llvm::Error allocHost(size_t Bytes, void **Ptr) const = 0;
  virtual llvm::Error freeHost(void *Ptr) const = 0;
  virtual llvm::Error allocManaged(size_t Bytes, void **Ptr) const = 0;
  virtual llvm::Error freeManaged(void *Ptr) const = 0;

  // Stream-ordered memory operations on S. Those that return int return 0
  // or the status of failWith() (core/RuntimeError.h): off the GPU they run
  // as host operations of S, which may be recorded and fail later.
  virtual llvm::Error allocAsync(size_t Bytes, Stream &S, void **Ptr) const = 0;
  // Frees Ptr of device Owner on S; null S: after all work on Owner.
  virtual int freeAsync(void *Ptr, int Owner, Stream *S) const = 0;
  virtual int copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                                size_t Bytes) const = 0;
  virtual int copyToHostAsync(Stream &S, void *Dst, const void *Src,
                              size_t Bytes) const = 0;
  // As memmove, also between two devices' memory.
  virtual int copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                                size_t Bytes) const = 0;
  virtual int fillAsync(Stream &S, void *Dst, const void *Pattern,
                        size_t ElementBytes, size_t Count) const = 0;
  // Moves managed memory to the device or to the host; off the GPU it is
  // where kernels run already (and S is not even looked up).
  virtual int prefetch(mstage_stream *S, const void *Ptr, size_t Bytes,
                       bool ToDevice) const = 0;

  // What the back end knows of P, a pointer the allocation map does not
  // hold (core/LaunchFactsOf.cpp).
  enum class Pointer {
    Unknown,      // nothing: host memory is an error, else left to fault
    Allocation,   // in an allocation starting at Start (driver memory)
    HostReadable, // host memory that kernels may read (HMM, ATS)
  };
  virtual Pointer findPointer(uintptr_t P, uintptr_t &Start) const = 0;

  // A device global's value on Device (mstage/device_global.hpp): Host is
  // the host object, which back ends without a GPU copy to and from; the
  // GPU's wait for the device's work first.
  virtual llvm::Error uploadGlobal(void *Host, size_t Bytes, bool Constant,
                                   unsigned Device,
                                   const void *Value) const = 0;
  virtual llvm::Error downloadGlobal(const void *Host, size_t Bytes,
                                     bool Constant, unsigned Device,
                                     void *Value) const = 0;

  //===--- Kernels (runtime/launch/) --------------------------------------===//
  // Runs K's host body over Config's blocks; only where runsHostBodies().
  // KernelMs, when not null, receives the launch's wall time.
  virtual llvm::Error runHostBody(const RegisteredKernel &K,
                                  mstage_invoke_fn Invoke, void *const *Params,
                                  const mstage_launch_config &Config,
                                  double *KernelMs) const = 0;
  // Code on Device from a cubin or PTX image. Where nothing runs (PTX-only)
  // nothing is loaded: null modules and functions, and success. PtxOptLevel
  // (0-4): the driver JIT's optimization level for PTX, -1 its default.
  virtual llvm::Error loadModule(unsigned Device, const std::string &Image,
                                 bool Cubin, CUmodule *Module,
                                 std::string *InfoLog = nullptr,
                                 int PtxOptLevel = -1) const = 0;
  virtual llvm::Error getFunction(unsigned Device, CUmodule Module,
                                  const std::string &Name,
                                  CUfunction *Function) const = 0;
  virtual llvm::Error unloadModule(unsigned Device, CUmodule Module) const = 0;
  // Enqueues Function on S; only where loadsCode(). Cooperative: all blocks
  // resident at once (a kernel that synchronizes its grid), or an error that
  // says how many fit; Programmatic: it may overlap the kernel before it
  // (cuda/LaunchKind.h). With ElapsedMs, the launch is timed and waited for.
  virtual llvm::Error launch(Stream &S, CUfunction Function,
                             const mstage_launch_config &Config, void **Params,
                             LaunchKind Kind, float *ElapsedMs) const = 0;
  // Lets the calling thread load modules while one of its streams is
  // captured (the GPU); returns what restoreCapture() takes back.
  virtual unsigned relaxCapture() const = 0;
  virtual void restoreCapture(unsigned Mode) const = 0;

  //===--- Events and graphs (runtime/StreamApi.cpp) ---------------------===//
  // On a GPU each is its CUDA object; off it an event completes when it is
  // recorded (its time is the host's clock then), and a graph replays the
  // host operations its capture recorded. The int results are C statuses,
  // as above.
  // An event of the current device; nothing to make off the GPU.
  virtual llvm::Error createEvent(mstage_event &E) const = 0;
  virtual void destroyEvent(mstage_event &E) const = 0;
  // Records E on S, which the caller has noted in E.
  virtual int recordEvent(mstage_event &E, Stream &S) const = 0;
  // For an event that was recorded: Waiting waits for it, the host waits for
  // it, or asks whether it completed (1 yes, 0 not yet, -1 failed).
  virtual int waitEvent(Stream &Waiting, mstage_event &E) const = 0;
  virtual int synchronizeEvent(mstage_event &E) const = 0;
  virtual int queryEvent(mstage_event &E) const = 0;
  // The time between two recorded events.
  virtual int elapsedMs(float *Ms, const mstage_event &Start,
                        const mstage_event &End) const = 0;
  // S's capture: begun, and ended into G (Instantiate: made replayable).
  virtual llvm::Error beginCapture(Stream &S) const = 0;
  virtual llvm::Error endCapture(Stream &S, mstage_graph &G,
                                 bool Instantiate) const = 0;
  virtual int launchGraph(mstage_graph &G, Stream &S) const = 0;
  // Destroys what the back end made for G; on a GPU, when G is a builder's
  // executable graph with host functions, after the device's work, which may
  // still call them.
  virtual void destroyGraph(mstage_graph &G) const = 0;
  // What runs the nodes of a graph built node by node on S's device
  // (core/GraphNodes.h): a CUDA graph on the GPU, host operations off it.
  virtual std::unique_ptr<GraphNodes> makeGraphNodes(Stream &S) const = 0;

  //===--- Streams (core/Stream.cpp) --------------------------------------===//
  // The queue of a new stream on Device: a driver stream on the GPU, null
  // off it (the host operations run in order).
  virtual llvm::Error createQueue(unsigned Device, CUstream *Queue) const = 0;
  // Waits for the work of every device some thread used (onGpu()); the
  // first failure as the driver gave it.
  virtual llvm::Error synchronizeDevices() const = 0;

protected:
  Backend(BackendTraits Traits, std::string Arch, std::string Reason,
          CudaDriver *Default = nullptr);

  // The rest of describe(), after the fields every back end sets alike.
  virtual void describeDevice(unsigned Device,
                              mstage_device_properties &P) const = 0;
  // Copies Text into a field of Size bytes, cut short and terminated.
  static void copyText(char *Field, size_t Size, llvm::StringRef Text);

private:
  const BackendTraits Traits;
  const std::string ArchText;
  const uint64_t ParamLimit; // of ArchText, parsed once: launches read it
  const std::string ReasonText;
  mutable std::atomic<int> SeveralDevices{-1}; // -1: not asked yet
};

// The process's back end, chosen on first use; never destroyed (launches
// from static destructors use it).
const Backend &backend();

// Made once by the back ends' room (backends/ChooseBackend.cpp), before
// main; backend() calls it on first use.
using BackendChooser = const Backend &(*)();
void setBackendChooser(BackendChooser Choose);

} // namespace mstage::rt

#endif
