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

protected:
  using Backend::Backend;

  // What Arch fixes of P, as launches here are held to it: shared memory
  // and threads, per block and per multiprocessor; P.arch is ArchText.
  void describeHeldTo(const std::string &Arch, llvm::StringRef ArchText,
                      mstage_device_properties &P) const;
};

} // namespace mstage::rt

#endif
