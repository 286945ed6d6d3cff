//===- DeviceProperties.cpp - What mstage::device reports -----------------===//
//
// mstage_rt_device_query answers for the back end that launches go to, and
// mstage_rt_device_properties for one of its devices; each back end
// describes its own (Backend::describe and occupancy): a GPU the driver's
// attributes, and cuOccupancy of the launch's own specialization (compiled
// through mstage_rt_compile, so that the launch that follows finds it in
// the cache); the CPU back end the host (backends/cpu/CpuBackend.h);
// PTX-only mode a nominal device of MSTAGE_ARCH, whose occupancy fails
// (backends/ptx/PtxBackend.h).
//
//===----------------------------------------------------------------------===//
#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "core/LaunchLimits.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "formats/AotImage.h"
#include "launch/CodeForLaunch.h"
#include "replay/GraphReplay.h"
#include "support/Settings.h"

#include "mstage/abi.h"

#include "llvm/ADT/StringRef.h"
#include "support/Export.h"

#include <cstring>
#include <string>

using namespace mstage::rt;

namespace {

// A failure of the kernel whose host entry is HostEntry.
int failFor(const void *HostEntry, llvm::Error E) {
  return failWith(withKernel(std::move(E), mstage_rt_kernel_name(HostEntry)));
}

} // namespace

extern "C" MSTAGE_EXPORT int
mstage_rt_device_query(mstage_device_properties *Props, const void *HostEntry,
                       void *const *Params, const uint32_t *ParamSizes,
                       uint32_t NumParams, const mstage_launch_config *Config,
                       int *Blocks) {
  const Backend &B = backend();
  if (!B.usable())
    return failWith(failure("no device to describe: " + B.reason()));
  B.describe(currentDevice(), *Props);
  if (!HostEntry)
    return 0;
  // A shape that cannot launch has no occupancy: said as a launch says it.
  if (llvm::Error Bad = checkLaunchShape(*Config, launchLimits(B)))
    return failFor(HostEntry, std::move(Bad));
  // The occupancy of the launch's own specialization, made as a launch
  // would make it (or found); only a GPU's driver can tell it.
  auto Code = [&](CUfunction &Function, CUmodule &Owned) {
    return codeForLaunch(HostEntry, Params, ParamSizes, NumParams, *Config,
                         Function, Owned);
  };
  return toStatus(
      B.occupancy(Code, *Config, mstage_rt_kernel_name(HostEntry), Blocks));
}

namespace {

// What keeps a device from being asked about: no back end, or no device of
// that number. "" when it can be.
std::string deviceProblem(unsigned Device) {
  const Backend &B = backend();
  if (!B.usable())
    return "no device to describe: " + B.reason();
  return checkDevice(Device);
}

} // namespace

extern "C" MSTAGE_EXPORT int mstage_rt_device_count(unsigned *Count) {
  *Count = 0;
  const Backend &B = backend();
  if (!B.usable())
    return failWith(failure("no device: " + B.reason()));
  *Count = B.deviceCount();
  return 0;
}

extern "C" MSTAGE_EXPORT unsigned mstage_rt_device_current(void) {
  return currentDevice();
}

extern "C" MSTAGE_EXPORT int mstage_rt_device_set_current(unsigned Device) {
  return setCurrentDevice(Device);
}

extern "C" MSTAGE_EXPORT int
mstage_rt_device_properties(unsigned Device, mstage_device_properties *Props) {
  if (std::string Why = deviceProblem(Device); !Why.empty())
    return failWith(failure(Why));
  backend().describe(Device, *Props);
  return 0;
}

extern "C" MSTAGE_EXPORT int
mstage_rt_device_native(unsigned Device, int *Ordinal, void **Context) {
  *Ordinal = -1;
  *Context = nullptr;
  if (std::string Why = deviceProblem(Device); !Why.empty())
    return failWith(failure(Why));
  CudaDriver *D = driverOf(Device);
  if (!D)
    return 0;
  // Work enqueued through the context is out of replay's sight.
  turnReplayOff("a native device handle was taken");
  // The context is made on first use; NCCL and the CUDA runtime use it.
  if (llvm::Error E = D->bindThread())
    return failWith(std::move(E));
  *Ordinal = D->deviceOrdinal();
  *Context = D->context();
  return 0;
}

extern "C" MSTAGE_EXPORT int mstage_rt_device_peer_access(unsigned Device,
                                                          unsigned Owner) {
  if (!deviceProblem(Device).empty() || !deviceProblem(Owner).empty())
    return 0;
  CudaDriver *D = driverOf(Device);
  return !D || Device == Owner ? Device == Owner
                               : D->peerAccess(*driverOf(Owner));
}
