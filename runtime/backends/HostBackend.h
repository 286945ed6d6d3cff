//===- HostBackend.h - What the back ends without a GPU share ---*- C++ -*-===//
//
// Off the GPU, device memory is host memory, aligned as cudaMalloc's is (256
// bytes) so that code that relies on it behaves the same, and a stream is an
// order of host operations: each runs as it is enqueued, or is recorded
// while the stream is captured (core/Stream.h). The CPU back end, PTX-only
// mode and the unavailable back end build on it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_HOSTBACKEND_H
#define MSTAGE_RUNTIME_BACKENDS_HOSTBACKEND_H

#include "core/Backend.h"

namespace mstage::rt {

class HostBackend : public Backend {
public:
  unsigned deviceCount() const override { return 1; }
  unsigned defaultDevice() const override { return 0; }
  CudaDriver *driver(unsigned) const override { return nullptr; }
  // sm_90's: the CPU takes any shape, and is held to a GPU's so that what
  // runs here also runs there.
  LaunchLimits limits() const override;

  llvm::Error alloc(size_t Bytes, unsigned Device, void **Ptr) const override;
  llvm::Error free(void *Ptr, int Owner) const override;
  llvm::Error copyToDevice(void *Dst, const void *Src,
                           size_t Bytes) const override;
  llvm::Error copyToHost(void *Dst, const void *Src,
                         size_t Bytes) const override;
  llvm::Error allocHost(size_t Bytes, void **Ptr) const override;
  llvm::Error freeHost(void *Ptr) const override;
  llvm::Error allocManaged(size_t Bytes, void **Ptr) const override;
  llvm::Error freeManaged(void *Ptr) const override;

  llvm::Error allocAsync(size_t Bytes, Stream &S, void **Ptr) const override;
  int freeAsync(void *Ptr, int Owner, Stream *S) const override;
  int copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                        size_t Bytes) const override;
  int copyToHostAsync(Stream &S, void *Dst, const void *Src,
                      size_t Bytes) const override;
  int copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                        size_t Bytes) const override;
  int fillAsync(Stream &S, void *Dst, const void *Pattern, size_t ElementBytes,
                size_t Count) const override;
  int prefetch(mstage_stream *S, const void *Ptr, size_t Bytes,
               bool ToDevice) const override;

  Pointer findPointer(uintptr_t P, uintptr_t &Start) const override;
  llvm::Error uploadGlobal(void *Host, size_t Bytes, bool Constant,
                           unsigned Device, const void *Value) const override;
  llvm::Error downloadGlobal(const void *Host, size_t Bytes, bool Constant,
                             unsigned Device, void *Value) const override;

  // Nothing is loaded off the GPU: null modules and functions; a host body
  // runs only on the CPU back end, which says so.
  llvm::Error runHostBody(const RegisteredKernel &K, mstage_invoke_fn Invoke,
                          void *const *Params,
                          const mstage_launch_config &Config,
                          double *KernelMs) const override;
  llvm::Error loadModule(unsigned Device, const std::string &Image, bool Cubin,
                         CUmodule *Module, std::string *InfoLog = nullptr,
                         int PtxOptLevel = -1) const override;
  llvm::Error getFunction(unsigned Device, CUmodule Module,
                          const std::string &Name,
                          CUfunction *Function) const override;
  llvm::Error unloadModule(unsigned Device, CUmodule Module) const override;
  llvm::Error launch(Stream &S, CUfunction Function,
                     const mstage_launch_config &Config, void **Params,
                     LaunchKind Kind, float *ElapsedMs) const override;
  unsigned relaxCapture() const override { return 0; }
  void restoreCapture(unsigned) const override {}

  // Events are times, graphs the operations their capture recorded.
  llvm::Error createEvent(mstage_event &E) const override;
  void destroyEvent(mstage_event &E) const override;
  int recordEvent(mstage_event &E, Stream &S) const override;
  int waitEvent(Stream &Waiting, mstage_event &E) const override;
  int synchronizeEvent(mstage_event &E) const override;
  int queryEvent(mstage_event &E) const override;
  int elapsedMs(float *Ms, const mstage_event &Start,
                const mstage_event &End) const override;
  llvm::Error beginCapture(Stream &S) const override;
  llvm::Error endCapture(Stream &S, mstage_graph &G,
                         bool Instantiate) const override;
  int launchGraph(mstage_graph &G, Stream &S) const override;
  void destroyGraph(mstage_graph &G) const override;
  // HostGraphNodes.cpp
  std::unique_ptr<GraphNodes> makeGraphNodes(Stream &S) const override;

  // A stream is an order of host operations, done when they are enqueued.
  llvm::Error createQueue(unsigned Device, CUstream *Queue) const override;
  llvm::Error synchronizeDevices() const override;

protected:
  using Backend::Backend;

  // What Arch fixes of P, as launches here are held to it: shared memory
  // and threads, per block and per multiprocessor; P.arch is ArchText.
  void describeHeldTo(const std::string &Arch, llvm::StringRef ArchText,
                      mstage_device_properties &P) const;
};

} // namespace mstage::rt

#endif
