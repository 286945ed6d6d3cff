//===- DeviceLibraryFunctions.cpp - C library functions a kernel may call -===//
#include "DeviceLibraryFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace mstage {

bool isDeviceLibraryFunction(StringRef Name) {
  static const StringSet<> Names = {
#define MSTAGE_LIBDEVICE_FUNCTION(NAME) #NAME,
#define MSTAGE_MEMORY_FUNCTION(NAME) #NAME,
#define MSTAGE_INLINE_FUNCTION(NAME) #NAME,
#define MSTAGE_RUNTIME_FUNCTION(NAME) #NAME,
#include "DeviceLibraryFunctions.def"
  };
  return Names.contains(Name) || !cudaLibdeviceName(Name).empty();
}

StringRef cudaLibdeviceName(StringRef Name) {
  static const StringMap<StringRef> Names = {
#define MSTAGE_CUDA_FUNCTION(RET, NAME, PARAMS, LIBDEVICE, HOST)               \
  {#NAME, "__nv_" #LIBDEVICE},
#include "mstage/cuda_functions.def"
  };
  return Names.lookup(Name);
}

} // namespace mstage
