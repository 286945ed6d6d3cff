//===- CudaDeviceGlobals.h - device_global values on the GPU --------------===//
//
// One value per device and device global, however many modules the JIT
// loads (mstage/device_global.hpp):
//   - a device global is one allocation per device; each module's pointer
//     variable is set to it when the module is loaded;
//   - a constant has a copy in each module: the device's value is kept here,
//     written into each module at load and into every loaded copy by an
//     upload.
// A device starts from the host object's bytes (the initializer) when an
// upload or a module load first needs its value.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CUDA_CUDADEVICEGLOBALS_H
#define MSTAGE_RUNTIME_BACKENDS_CUDA_CUDADEVICEGLOBALS_H

#include "llvm/Support/Error.h"

#include <cuda.h>

#include <cstddef>

namespace mstage::rt {

// Sets the device globals of the registered units that Module holds.
llvm::Error bindDeviceGlobals(unsigned Device, CUmodule Module);
// Forgets Module's copies of constants, before it is unloaded.
void forgetDeviceGlobals(unsigned Device, CUmodule Module);

// Device's value of the device global whose host object is Host; the
// device's work must be done.
llvm::Error uploadDeviceGlobal(unsigned Device, const void *Host, size_t Bytes,
                               bool Constant, const void *Value);
llvm::Error downloadDeviceGlobal(unsigned Device, const void *Host,
                                 size_t Bytes, bool Constant, void *Value);

} // namespace mstage::rt

#endif
