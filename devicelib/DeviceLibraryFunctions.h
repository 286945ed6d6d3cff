//===- DeviceLibraryFunctions.h - C library functions a kernel may call ---===//
//
// The lookup over DeviceLibraryFunctions.def, shared by the Clang plugin's
// checker (compiler/) and the device-export pass (passes/), which must agree
// on what a kernel may call without a body.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_DEVICELIB_DEVICELIBRARYFUNCTIONS_H
#define MSTAGE_DEVICELIB_DEVICELIBRARYFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace mstage {

// True for the C library functions that the device has a version of (any
// entry of DeviceLibraryFunctions.def) and for CUDA's functions that
// <mstage/cuda_compat.hpp> declares.
bool isDeviceLibraryFunction(llvm::StringRef Name);

// The libdevice function (__nv_fast_expf) that stands for CUDA's function
// Name (__expf) of include/mstage/cuda_functions.def, or "" for other names.
llvm::StringRef cudaLibdeviceName(llvm::StringRef Name);

} // namespace mstage

#endif
