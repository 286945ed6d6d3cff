//===- DeviceGlobalApi.cpp - The C ABI of mstage::device_global -----------===//
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "support/Export.h"

using namespace mstage::rt;

namespace {

// What keeps a device global of that device from being reached: no back
// end, or no device of that number. "" when it can be.
std::string globalProblem(unsigned Device, const char *What) {
  const Backend &B = backend();
  if (!B.usable())
    return std::string("device_global ") + What + ": " + B.reason();
  std::string Why = checkDevice(Device);
  return Why.empty() ? Why : std::string("device_global ") + What + ": " + Why;
}

} // namespace

extern "C" MSTAGE_EXPORT int mstage_rt_global_upload(void *Host, uint64_t Size,
                                                     int Constant,
                                                     unsigned Device,
                                                     const void *Value) {
  if (std::string Why = globalProblem(Device, "upload"); !Why.empty())
    return failWith(failure(Why));
  return toStatus(
      backend().uploadGlobal(Host, Size, Constant != 0, Device, Value));
}

extern "C" MSTAGE_EXPORT int
mstage_rt_global_download(const void *Host, uint64_t Size, int Constant,
                          unsigned Device, void *Value) {
  if (std::string Why = globalProblem(Device, "download"); !Why.empty())
    return failWith(failure(Why));
  return toStatus(
      backend().downloadGlobal(Host, Size, Constant != 0, Device, Value));
}
