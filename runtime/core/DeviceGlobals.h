//===- DeviceGlobals.h - The device globals of the registered units -------===//
//
// Each unit's module record lists its mstage::device_global variables
// (mstage_global_record: the module variable's name, the host object). The
// GPU back end looks each up in every module it loads
// (backends/cuda/CudaDeviceGlobals.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_DEVICEGLOBALS_H
#define MSTAGE_RUNTIME_CORE_DEVICEGLOBALS_H

#include "mstage/abi.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mstage::rt {

void addDeviceGlobals(const mstage_module_record &Module);
void removeDeviceGlobals(const mstage_module_record &Module);

// Calls Fn for each device global of the registered units, under the
// registry's lock (Fn must not register or unregister).
void forEachDeviceGlobal(
    llvm::function_ref<void(const mstage_global_record &)> Fn);

// The C++ name of a device global from its module variable's name
// (__mstage_global_<symbol>[_<file hash>]), for messages.
std::string deviceGlobalName(const char *DeviceName);

// Why the kernels of Module cannot launch, or "": one of its device globals
// has no host object (declared extern and weak, and no file of the program
// defines it, which the host linker let through).
std::string undefinedDeviceGlobal(const mstage_module_record &Module);

} // namespace mstage::rt

#endif
