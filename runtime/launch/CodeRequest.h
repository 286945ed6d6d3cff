//===- CodeRequest.h - What a specialization's code is made of -*- C++ -*-===//
//
// The code of a specialization is made (makeCode, MakeCode.h) for a kernel,
// a launch (its configuration, staged values and the facts of its
// pointers) and a back end, and loaded on one device.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_CODEREQUEST_H
#define MSTAGE_RUNTIME_LAUNCH_CODEREQUEST_H

#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "core/StagedLaunch.h"

#include "mstage/abi.h"
#include "formats/LaunchConfig.h"

namespace mstage::rt {

class CudaDriver;

struct CodeRequest {
  const RegisteredKernel &K;
  const Backend &B;
  CudaDriver *D; // the device it is loaded on; null off the GPU
  const LaunchConfig &Config;
  const StagedLaunch &Staged;
};

} // namespace mstage::rt

#endif
