//===- Backend.cpp - The process's back end, made on first use ------------===//
#include "core/Backend.h"
#include "transforms/CaptureInMemory.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace mstage::rt {

// Set before main by the back ends' room; read once, by backend().
static BackendChooser Chooser = nullptr;

void setBackendChooser(BackendChooser Choose) {
  assert(Choose && !Chooser && "one room chooses the back end, once");
  Chooser = Choose;
}

const Backend &backend() {
  static const Backend &B = []() -> const Backend & {
    assert(Chooser && "backends/ChooseBackend.cpp is linked into the runtime");
    return Chooser();
  }();
  return B;
}

Backend::Backend(BackendTraits Traits, std::string Arch, std::string Reason,
                 CudaDriver *Default)
    : Traits(Traits), ArchText(std::move(Arch)),
      ParamLimit(kernelParamLimit(ArchText)), ReasonText(std::move(Reason)) {
  (void)Default; // only asserted
  assert((Traits.Usable || !Traits.Executes) &&
         "nothing runs where nothing can");
  assert((!Traits.OnGpu || (Default && Traits.Executes && Traits.Compiles)) &&
         "the GPU compiles, runs, and has a default device");
  assert((Traits.Compiles == !ArchText.empty()) &&
         "what compiles knows its architecture");
}

void Backend::describe(unsigned Device, mstage_device_properties &P) const {
  assert(Device < deviceCount() && "describe() is asked of a device that is");
  std::memset(&P, 0, sizeof(P));
  P.warp_size = 32;
  P.index = Device;
  describeDevice(Device, P);
}

void Backend::copyText(char *Field, size_t Size, llvm::StringRef Text) {
  assert(Size && "a text field has room for its terminator");
  size_t N = std::min(Size - 1, Text.size());
  std::memcpy(Field, Text.data(), N);
  Field[N] = '\0';
}

} // namespace mstage::rt
