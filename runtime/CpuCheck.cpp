//===- CpuCheck.cpp - MSTAGE_CHECK=cpu: the runtime's side ----------------===//
//
// The header (mstage/cpu_check.hpp, kernel.hpp) copies a launch's inputs,
// runs it on the back end, then through mstage_rt_launch_on_cpu on the
// copies, and compares. On the CPU back end the second run is on the CPU
// too: a check that the kernel gives the same output twice.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/StageCheck.h"
#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "core/RuntimeError.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "mstage/abi.h"

#include "support/Export.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

using namespace mstage::rt;

extern "C" MSTAGE_EXPORT int mstage_rt_check_mode(const void *HostEntry,
                                                  int Checkable) {
  const CheckSettings &S = checkSettings();
  if (!S.Error.empty())
    return failWith(failure(S.Error)), -1;
  if (!S.Cpu || !backend().executes())
    return 0;
  // A pointer in the lambda's captures (a captured view) is device memory
  // too, which the CPU's run would dereference.
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  bool Captures =
      K && llvm::any_of(K->Blob.PointerSlots, [](const mstage::PointerSlot &S) {
        return S.Param == 0;
      });
  // A device global or the device heap holds state that the CPU's run
  // does not share: its outputs would differ without a fault.
  bool DeviceState = K && K->Blob.Traits.UsesDeviceState;
  if (Checkable && !Captures && !DeviceState)
    return 1;
  static std::mutex &Lock = *new std::mutex; // never destroyed, as launches
  static auto &Warned = *new std::set<const void *>;
  std::lock_guard<std::mutex> G(Lock);
  if (!Warned.insert(HostEntry).second)
    return 0;
  if (DeviceState && Checkable && !Captures)
    warn(llvm::Twine("MSTAGE_CHECK=cpu: kernel '") +
         mstage_rt_kernel_name(HostEntry) +
         "' uses a device global or the device heap, whose state on the "
         "device a run on the CPU does not share; its launches are not "
         "checked");
  else
    warn(llvm::Twine("MSTAGE_CHECK=cpu: kernel '") +
         mstage_rt_kernel_name(HostEntry) + "' " +
         (Captures ? "captures" : "takes") +
         " a pointer to device memory (a raw pointer or a view), which the "
         "CPU cannot follow; its launches are not checked (pass a "
         "device_vector instead)");
  return 0;
}

extern "C" MSTAGE_EXPORT int
mstage_rt_launch_on_cpu(const void *HostEntry, mstage_invoke_fn Invoke,
                        void *const *Params, uint32_t NumParams,
                        const mstage_launch_config *Config) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  if (!K)
    return failWith(failure("cannot check a kernel on the CPU: " + Why));
  if (NumParams != K->Blob.NumParams)
    return failWith(withKernel(
        failure("parameter count mismatch; rebuild the program"), *K));
  return toStatus(
      launchOnCpuStageChecked(*K, Invoke, Params, *Config, nullptr));
}

extern "C" MSTAGE_EXPORT const char *
mstage_rt_kernel_name(const void *HostEntry) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  return K ? K->Blob.PrettyName.c_str() : "?";
}

extern "C" MSTAGE_EXPORT double mstage_rt_check_tolerance(void) {
  return checkSettings().Rtol;
}
