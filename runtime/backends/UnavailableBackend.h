//===- UnavailableBackend.h - No back end: every call says why --*- C++ -*-===//
//
// What the choice gives when nothing can run (a bad setting, MSTAGE_BACKEND=
// cuda without a GPU): every operation that needs a device fails with the
// reason. Host memory that needs none (pinned and managed allocations,
// frees) is still host memory, as before the interface.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_UNAVAILABLEBACKEND_H
#define MSTAGE_RUNTIME_BACKENDS_UNAVAILABLEBACKEND_H

#include "backends/HostBackend.h"

namespace mstage::rt {

class UnavailableBackend final : public HostBackend {
public:
  explicit UnavailableBackend(std::string Reason);

  unsigned deviceCount() const override { return 0; }
  llvm::Error occupancy(CodeMaker Code, const mstage_launch_config &Config,
                        const char *Kernel, int *Blocks) const override;

  llvm::Error alloc(size_t Bytes, unsigned Device, void **Ptr) const override;
  llvm::Error copyToDevice(void *Dst, const void *Src,
                           size_t Bytes) const override;
  llvm::Error copyToHost(void *Dst, const void *Src,
                         size_t Bytes) const override;
  int copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                        size_t Bytes) const override;
  int copyToHostAsync(Stream &S, void *Dst, const void *Src,
                      size_t Bytes) const override;
  int copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                        size_t Bytes) const override;
  int fillAsync(Stream &S, void *Dst, const void *Pattern, size_t ElementBytes,
                size_t Count) const override;

private:
  void describeDevice(unsigned Device,
                      mstage_device_properties &P) const override;
  llvm::Error why() const;
};

} // namespace mstage::rt

#endif
