//===- UnavailableBackend.cpp - No back end: every call says why ----------===//
#include "backends/UnavailableBackend.h"
#include "core/RuntimeError.h"

#include <cassert>

namespace mstage::rt {

UnavailableBackend::UnavailableBackend(std::string Reason)
    : HostBackend(BackendTraits{}, "", std::move(Reason)) {
  assert(!reason().empty() && "an unavailable back end says why");
}

llvm::Error UnavailableBackend::why() const { return failure(reason()); }

void UnavailableBackend::describeDevice(unsigned,
                                        mstage_device_properties &) const {
  assert(false && "there is no device to describe");
}

llvm::Error UnavailableBackend::occupancy(CodeMaker,
                                          const mstage_launch_config &,
                                          const char *, int *) const {
  return why();
}

llvm::Error UnavailableBackend::alloc(size_t, unsigned, void **) const {
  return why();
}

llvm::Error UnavailableBackend::copyToDevice(void *, const void *,
                                             size_t) const {
  return why();
}

llvm::Error UnavailableBackend::copyToHost(void *, const void *, size_t) const {
  return why();
}

int UnavailableBackend::copyToDeviceAsync(Stream &, void *, const void *,
                                          size_t) const {
  return failWith(why());
}

int UnavailableBackend::copyToHostAsync(Stream &, void *, const void *,
                                        size_t) const {
  return failWith(why());
}

int UnavailableBackend::copyOnDeviceAsync(Stream &, void *, const void *,
                                          size_t) const {
  return failWith(why());
}

int UnavailableBackend::fillAsync(Stream &, void *, const void *, size_t,
                                  size_t) const {
  return failWith(why());
}

} // namespace mstage::rt
