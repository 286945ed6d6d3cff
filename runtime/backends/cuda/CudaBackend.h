//===- CudaBackend.h - The GPU back end, by the CUDA driver -----*- C++ -*-===//
//
// Kernels are JIT-compiled for the oldest architecture among the visible
// devices (its PTX loads on the newer ones too), loaded on each device that
// launches them, and launched on the driver's streams; memory is the
// devices' (cuda/CudaDriver.h does every driver call). Work is
// asynchronous: a kernel's fault surfaces at the next synchronizing call.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CUDA_CUDABACKEND_H
#define MSTAGE_RUNTIME_BACKENDS_CUDA_CUDABACKEND_H

#include "core/Backend.h"

namespace mstage::rt {

class CudaBackend final : public Backend {
public:
  // Default: the device threads start on (MSTAGE_DEVICE); Arch is valid.
  CudaBackend(CudaDriver &Default, std::string Arch);

  void start() const override;

  unsigned deviceCount() const override;
  unsigned defaultDevice() const override;
  CudaDriver *driver(unsigned Device) const override;
  LaunchLimits limits() const override; // the default device's attributes
  llvm::Error occupancy(CodeMaker Code, const mstage_launch_config &Config,
                        const char *Kernel, int *Blocks) const override;

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
  // CudaGraphNodes.cpp
  std::unique_ptr<GraphNodes> makeGraphNodes(Stream &S) const override;

  // Kernels run as compiled code: no host body runs here.
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
  unsigned relaxCapture() const override;
  void restoreCapture(unsigned Mode) const override;

  llvm::Error createQueue(unsigned Device, CUstream *Queue) const override;
  llvm::Error synchronizeDevices() const override;

private:
  void describeDevice(unsigned Device,
                      mstage_device_properties &P) const override;
  CudaDriver &Default;
};

} // namespace mstage::rt

#endif
