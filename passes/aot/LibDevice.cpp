//===- LibDevice.cpp - NVIDIA's libdevice, embedded at build time ---------===//
#include "aot/LibDevice.h"

#include <cassert>

extern "C" const char __mstage_libdevice_begin[];
extern "C" const char __mstage_libdevice_end[];

namespace mstage {

llvm::StringRef libdeviceBitcode() {
  assert(__mstage_libdevice_end > __mstage_libdevice_begin &&
         "the build embeds libdevice");
  return llvm::StringRef(__mstage_libdevice_begin,
                         __mstage_libdevice_end - __mstage_libdevice_begin);
}

} // namespace mstage
