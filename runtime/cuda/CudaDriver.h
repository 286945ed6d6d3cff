//===- CudaDriver.h - The CUDA Driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime's only door to the GPU. libcuda.so.1 is opened with dlopen on
// first use, never linked, so a machine without a driver still compiles
// kernels and emits PTX, and reports in one sentence why nothing can run.
//
// One CudaDriver per visible device: CUDA's devices (after the driver applies
// CUDA_VISIBLE_DEVICES), or those MSTAGE_VISIBLE_DEVICES lists, numbered
// from 0 in that order. get() is the default one, 0 or MSTAGE_DEVICE=N. A
// device's primary context is retained on its first use and made current on
// whichever host thread calls; every operation below does that itself, so
// any thread may call any of them. Launches and the *Async operations go to
// the stream they are given, which must be this device's.
//
// Every CUresult is checked. A failure comes back as a llvm::Error whose
// Message reads "<what>: <CUDA_ERROR_NAME> (<error string>)", followed where it
// helps by the JIT log or a hint; callers prefix the kernel's name.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CUDA_CUDADRIVER_H
#define MSTAGE_RUNTIME_CUDA_CUDADRIVER_H

#include "cuda/LaunchKind.h"
#include "support/RuntimeFailure.h"
#include "support/Settings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mstage {
namespace rt {

// A failure of a driver operation: a RuntimeFailure carrying Code (never
// CUDA_SUCCESS: that becomes CUDA_ERROR_UNKNOWN) and an already formatted
// message.
llvm::Error cudaFailure(CUresult Code, std::string Message);

// The CUresult of a failure from the driver (CUDA_SUCCESS for success); E
// stays as it was.
inline CUresult cudaErrorCode(llvm::Error &E) {
  return static_cast<CUresult>(failureCode(E));
}

// Whether an operation whose failure is not reported succeeded (a trace's
// events, an unload at exit). Consumes E.
inline bool succeeded(llvm::Error E) {
  return !llvm::errorToBool(std::move(E));
}

class CudaDriver {
public:
  // Loads libcuda.so.1, initializes the visible devices and retains the
  // default one's primary context, once per process (thread-safe). Returns
  // nullptr when no driver or no device is usable; whyUnavailable() then
  // says why.
  static CudaDriver *get();
  // One sentence: dlopen's error, a missing symbol, cuInit's error, "no CUDA
  // device", ... Empty when get() succeeds.
  static const std::string &whyUnavailable();
  // Whether the driver works but MSTAGE_VISIBLE_DEVICES or MSTAGE_DEVICE
  // names a device that it does not have (or MSTAGE_DEVICE is no number):
  // the setting's error, which no other back end may hide.
  static bool refusedBySetting();
  // The visible devices (0 without a driver), and the one numbered Index
  // (null past the last).
  static unsigned count();
  static CudaDriver *at(unsigned Index);

  // This device: its number among the visible devices, and CUDA's.
  unsigned index() const { return Index; }
  int deviceOrdinal() const { return Ordinal; }
  CUcontext context() const { return Context; } // null until first used
  size_t totalMemory() const { return TotalMemory; }
  const std::string &pciBusId() const { return PciBusId; }
  CUdevice device() const { return Device; }
  const std::string &deviceName() const { return DeviceName; }
  int ccMajor() const { return CcMajor; }
  int ccMinor() const { return CcMinor; }
  std::string arch() const;                           // "sm_90"
  int driverVersion() const { return DriverVersion; } // e.g. 13000
  int maxThreadsPerBlock() const { return MaxThreadsPerBlock; }
  int maxSharedBytesPerBlock() const { return MaxSharedPerBlock; }
  // The most a kernel can get by raising its dynamic shared memory limit.
  int maxSharedBytesPerBlockOptin() const { return MaxSharedPerBlockOptin; }
  int multiprocessorCount() const { return MultiprocessorCount; }
  int maxSharedBytesPerMultiprocessor() const {
    return MaxSharedPerMultiprocessor;
  }
  int maxThreadsPerMultiprocessor() const {
    return MaxThreadsPerMultiprocessor;
  }
  int warpSize() const { return WarpSize; }
  // The largest block and grid extent along axis 0 (x), 1 (y) or 2 (z).
  int maxBlockDim(int Axis) const { return MaxBlockDim[Axis]; }
  int maxGridDim(int Axis) const { return MaxGridDim[Axis]; }
  // "NVIDIA H200 (sm_90), device 0, driver 13.0"
  std::string description() const;
  // "device 1 (NVIDIA H200)"
  std::string shortName() const;

  // Whether kernels on this device may read Owner's memory: possible
  // (cuDeviceCanAccessPeer) and not turned off by MSTAGE_PEER_ACCESS=0. The
  // first call for a pair enables it (cuCtxEnablePeerAccess, and access to
  // Owner's memory pool); the answer is kept. True for Owner == this.
  bool peerAccess(CudaDriver &Owner);
  // Copies Bytes from Src on device SrcDev to Dst on this device, on Stream
  // (this device's): directly with peer access, else staged by the driver
  // through host memory.
  llvm::Error copyPeerAsync(CUdeviceptr Dst, CUdeviceptr Src,
                            CudaDriver &SrcDev, size_t Bytes, CUstream Stream);

  // Makes the primary context current on the calling thread; cheap when it
  // already is. The operations below call it themselves.
  llvm::Error bindThread();

  // Memory. Zero bytes is valid: alloc gives 0, and free(0) and empty copies
  // do nothing. Copies are synchronous.
  llvm::Error alloc(size_t Bytes, CUdeviceptr *Ptr);
  llvm::Error free(CUdeviceptr Ptr);
  llvm::Error copyToDevice(CUdeviceptr Dst, const void *Src, size_t Bytes);
  llvm::Error copyToHost(void *Dst, CUdeviceptr Src, size_t Bytes);

  // Modules. The PTX is JIT-compiled for this device; a ptxas failure puts
  // the JIT error log in the message. InfoLog, when given, receives the JIT's
  // informational log on success. OptLevel: CU_JIT_OPTIMIZATION_LEVEL (0-4),
  // or -1 for the driver's default (4).
  llvm::Error loadModuleFromPtx(const std::string &Ptx, CUmodule *Module,
                                std::string *InfoLog = nullptr,
                                int OptLevel = -1);
  // A cubin for this device (from ptxas) loads without the JIT.
  llvm::Error loadModuleFromCubin(const std::string &Cubin, CUmodule *Module);
  // The context's limit L (cuCtxSetLimit, cuCtxGetLimit).
  llvm::Error setLimit(CUlimit L, size_t Value);
  llvm::Error getLimit(CUlimit L, size_t *Value);
  // The module variable Name: its address and size; *Ptr is 0 when the
  // module has none of that name.
  llvm::Error getGlobal(CUmodule Module, const std::string &Name,
                        CUdeviceptr *Ptr, size_t *Bytes);
  llvm::Error getFunction(CUmodule Module, const std::string &Name,
                          CUfunction *Function);
  llvm::Error unloadModule(CUmodule Module);

  // Launches Function on the default stream with the kernel parameters
  // Params (one pointer per parameter). Static and dynamic shared memory
  // past 48 KiB raise the function's limit first. Asynchronous: errors raised
  // while the kernel runs surface in synchronize().
  static constexpr unsigned DefaultSharedLimit = 48 * 1024;
  // With ElapsedMs, the launch is bracketed by events and waited for, and
  // ElapsedMs receives the kernel's GPU time. Cooperative: through
  // cuLaunchCooperativeKernel, after checking that every block of the grid
  // can be resident at once (cooperativeFits). Programmatic: through
  // cuLaunchKernelEx with programmatic stream serialization (LaunchKind.h).
  llvm::Error launch(CUfunction Function, const uint32_t Grid[3],
                     const uint32_t Block[3], uint32_t SharedBytes,
                     void **Params, CUstream Stream, float *ElapsedMs = nullptr,
                     LaunchKind Kind = LaunchKind::Plain);
  // How many blocks of BlockSize threads with SharedBytes of dynamic shared
  // memory one multiprocessor runs at once (cuOccupancy...).
  llvm::Error occupancy(CUfunction Function, int BlockSize,
                        uint32_t SharedBytes, int *Blocks);
  // What the loaded Function uses (registers, shared and local bytes, ...).
  llvm::Error functionAttribute(CUfunction Function,
                                CUfunction_attribute Attribute, int *Value);
  // Sets one of Function's attributes (cuFuncSetAttribute), e.g. its
  // preferred shared memory carveout.
  llvm::Error setFunctionAttribute(CUfunction Function,
                                   CUfunction_attribute Attribute, int Value);
  // Waits for all work on the device.
  llvm::Error synchronize();
  // Whether this device's context exists (some thread used the device).
  bool used() const { return Used.load(std::memory_order_acquire); }

  // Streams and events. Streams are non-blocking: they do not wait for the
  // legacy default stream. Events are made with timing unless told not to.
  llvm::Error createStream(CUstream *Stream);
  llvm::Error destroyStream(CUstream Stream);
  llvm::Error synchronizeStream(CUstream Stream);
  llvm::Error waitEvent(CUstream Stream, CUevent Event);
  llvm::Error createEvent(CUevent *Event, bool Timing = true);
  llvm::Error destroyEvent(CUevent Event);
  llvm::Error recordEvent(CUevent Event, CUstream Stream);
  llvm::Error synchronizeEvent(CUevent Event);
  // CUDA_SUCCESS when done, CUDA_ERROR_NOT_READY when not, else the error.
  CUresult queryEvent(CUevent Event);
  llvm::Error elapsedMs(float *Ms, CUevent Start, CUevent End);

  // Stream-ordered memory from the runtime's pool, which keeps what is freed
  // for the next allocation. Out of memory, the pool gives back what it holds
  // and the allocation is tried once more.
  llvm::Error allocAsync(size_t Bytes, CUstream Stream, CUdeviceptr *Ptr);
  // Makes the pool if it is not there yet: allocAsync makes it on first
  // use, which fails while a stream of the thread is captured
  // (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED from cuMemPoolCreate).
  llvm::Error makePool();
  llvm::Error freeAsync(CUdeviceptr Ptr, CUstream Stream);
  llvm::Error copyToDeviceAsync(CUdeviceptr Dst, const void *Src, size_t Bytes,
                                CUstream Stream);
  llvm::Error copyToHostAsync(void *Dst, CUdeviceptr Src, size_t Bytes,
                              CUstream Stream);
  llvm::Error copyDeviceAsync(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes,
                              CUstream Stream);
  // Sets Count elements of ElementBytes each to the bytes at Pattern.
  llvm::Error fillAsync(CUdeviceptr Dst, const void *Pattern,
                        size_t ElementBytes, size_t Count, CUstream Stream);
  // Page-locked host memory, and unified memory usable on host and device.
  llvm::Error allocHost(size_t Bytes, void **Ptr);
  llvm::Error freeHost(void *Ptr);
  llvm::Error allocManaged(size_t Bytes, CUdeviceptr *Ptr);
  // Moves managed memory to this device (ToDevice) or to the host.
  llvm::Error prefetch(CUdeviceptr Ptr, size_t Bytes, bool ToDevice,
                       CUstream Stream);
  // The allocation Ptr points into, when the driver knows it (device,
  // pinned or managed memory); false for pageable host memory.
  bool pointerRange(CUdeviceptr Ptr, CUdeviceptr *Start, size_t *Size);
  // Whether kernels may read pageable host memory (HMM, ATS).
  bool pageableMemoryAccess() const { return PageableMemoryAccess != 0; }

  // Graphs by stream capture. Capture is thread-local: calls of other
  // threads go on as usual. relaxCapture lets this thread load modules while
  // one of its streams is captured; it returns the mode to restore.
  llvm::Error beginCapture(CUstream Stream);
  llvm::Error endCapture(CUstream Stream, CUgraph *Graph);
  CUstreamCaptureMode relaxCapture(CUstreamCaptureMode Mode);
  // The nodes that the next operation captured on Stream will run after
  // (after an operation: its node), and setting them (none: a root).
  llvm::Error captureDependencies(CUstream Stream,
                                  llvm::SmallVectorImpl<CUgraphNode> &Nodes);
  llvm::Error setCaptureDependencies(CUstream Stream,
                                     llvm::ArrayRef<CUgraphNode> Nodes);
  llvm::Error instantiate(CUgraph Graph, CUgraphExec *Exec);
  llvm::Error launchGraph(CUgraphExec Exec, CUstream Stream);
  void destroyGraph(CUgraph Graph, CUgraphExec Exec);

  // Graphs built node by node (mstage/graph_builder.hpp). Deps: the nodes
  // a new node runs after.
  llvm::Error createGraph(CUgraph *Graph);
  // Node is Child's clone (a child graph node), or an empty node when Child
  // is null.
  llvm::Error addChildNode(CUgraph Graph, llvm::ArrayRef<CUgraphNode> Deps,
                           CUgraph Child, CUgraphNode *Node);
  llvm::Error addHostNode(CUgraph Graph, llvm::ArrayRef<CUgraphNode> Deps,
                          CUhostFn Fn, void *Data, CUgraphNode *Node);
  // A kernel node launching as Params says, with the launch attributes
  // (cooperative, say) of the kernel node Like.
  llvm::Error addKernelNode(CUgraph Graph, llvm::ArrayRef<CUgraphNode> Deps,
                            const CUDA_KERNEL_NODE_PARAMS &Params,
                            CUgraphNode Like, CUgraphNode *Node);
  llvm::Error addDependency(CUgraph Graph, CUgraphNode From, CUgraphNode To);
  // When Graph's only node is a kernel node: that node, and its parameters
  // in Params (valid while Graph lives); else null. Count: Graph's nodes.
  llvm::Expected<CUgraphNode>
  onlyKernelNode(CUgraph Graph, CUDA_KERNEL_NODE_PARAMS *Params, size_t *Count);
  // Sets the kernel node Node of Graph, and in Exec (when not null), an
  // executable graph instantiated from Graph, to launch as Params says.
  llvm::Error setKernelNode(CUgraphNode Node, CUgraphExec Exec,
                            const CUDA_KERNEL_NODE_PARAMS &Params);

  // "<What>: <CUDA_ERROR_NAME> (<error string>)"
  std::string errorText(CUresult Code, std::string_view What) const;

  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  struct Entries; // the bound entry points, defined in CudaDriver.cpp

private:
  explicit CudaDriver(const Entries &Fn) : Fn(Fn) {}
  static bool create(std::vector<CudaDriver *> &Devices, unsigned &Default,
                     std::string &Why);
  static CudaDriver *describe(const Entries &Fn, unsigned Index, int Ordinal,
                              int DriverVersion, std::string &Why);
  llvm::Error retainContext();
  llvm::Error check(CUresult Code, std::string_view What) const;
  llvm::Error loadImage(const void *Image, const std::string &What,
                        const std::string *Ptx, CUmodule *Module,
                        std::string *InfoLog, int OptLevel = -1);
  // Raises Function's dynamic shared memory limit where a launch of Dynamic
  // bytes needs it (launch(), occupancy()).
  llvm::Error allowDynamicShared(CUfunction Function, uint32_t Dynamic);

  llvm::Error memoryPool(CUmemoryPool *Pool);

  const Entries &Fn;
  std::once_flag PoolOnce;
  CUmemoryPool Pool = nullptr; // made on first use, under PoolOnce
  std::string PoolError;
  std::once_flag ContextOnce;
  std::atomic<bool> Used{false};
  CUresult ContextError = CUDA_SUCCESS;
  std::mutex PeerLock;
  // Per owner device: 0 not asked yet, 1 enabled, 2 not possible.
  std::atomic<uint8_t> Peer[MaxDevices] = {};
  unsigned Index = 0;
  int Ordinal = 0;
  CUdevice Device = 0;
  CUcontext Context = nullptr; // set under ContextOnce
  size_t TotalMemory = 0;
  std::string PciBusId;
  std::string DeviceName;
  int CcMajor = 0, CcMinor = 0;
  int DriverVersion = 0;
  int MaxThreadsPerBlock = 0;
  int MaxSharedPerBlock = 0;
  int MaxSharedPerBlockOptin = 0;
  int MultiprocessorCount = 0;
  int MaxSharedPerMultiprocessor = 0;
  int MaxThreadsPerMultiprocessor = 0;
  int WarpSize = 0;
  int PageableMemoryAccess = 0;
  int MaxBlockDim[3] = {0, 0, 0};
  int MaxGridDim[3] = {0, 0, 0};
};

} // namespace rt
} // namespace mstage

#endif
