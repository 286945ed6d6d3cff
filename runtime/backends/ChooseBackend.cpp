//===- ChooseBackend.cpp - Where launches go: a GPU, the CPU, PTX only ----===//
//
// The one place that knows every back end: MSTAGE_BACKEND (auto, cuda, cpu
// or ptx) and MSTAGE_ARCH choose one, once per process, on first use. auto
// is the GPU when there is one; else PTX-only when MSTAGE_ARCH is set (as
// before the CPU back end existed), else the CPU. A fallback (PTX-only or
// the CPU) is announced on stderr once. A setting that is wrong leaves no
// back end: every call then fails with the reason.
//
//===----------------------------------------------------------------------===//
#include "backends/UnavailableBackend.h"
#include "backends/cpu/CpuBackend.h"
#include "backends/cpu/CpuThreadPool.h"
#include "backends/cuda/CudaBackend.h"
#include "backends/ptx/PtxBackend.h"
#include "cuda/CudaDriver.h"
#include "jit/JitCompiler.h"
#include "support/Export.h"
#include "support/Warning.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace mstage::rt {

// What is wrong with MSTAGE_ARCH=Arch, or "".
static std::string checkArchSetting(const std::string &Arch) {
  if (llvm::Error E = checkArch(Arch))
    return "MSTAGE_ARCH=" + llvm::toString(std::move(E));
  return "";
}

static const Backend *ptxOnly(const std::string &Arch, const std::string &Why) {
  if (std::string Bad = checkArchSetting(Arch); !Bad.empty())
    return new UnavailableBackend(Bad);
  warn(Why + "; compiling kernels for " + Arch +
       " to PTX only, nothing is executed");
  return new PtxBackend(Arch, Why);
}

static const Backend *cpu(const std::string &Why) {
  if (!Why.empty())
    warn("no GPU (" + Why + "); running kernels on the CPU (" +
         llvm::Twine(cpuThreadCount()) +
         " threads); MSTAGE_BACKEND=cpu chooses it silently");
  return new CpuBackend(Why);
}

// What is wrong with MSTAGE_DEVICE or MSTAGE_VISIBLE_DEVICES when there is
// no GPU (Why) and MSTAGE_BACKEND did not ask for the CPU or PTX-only: a
// device after 0 is not there; "" when none is named.
static std::string missingDevice(const std::string &Why) {
  std::string Named;
  int Device = deviceSetting().Index;
  if (Device > 0)
    Named = "MSTAGE_DEVICE=" + std::to_string(Device);
  for (int O : visibleDevicesSetting().Ordinals)
    if (Named.empty() && O > 0) {
      Device = O;
      Named = "MSTAGE_VISIBLE_DEVICES='" + visibleDevicesSetting().Text + "'";
    }
  if (Named.empty())
    return "";
  return Named + " names device " + std::to_string(Device) +
         ", but there is no GPU (" + Why +
         ") and the CPU back end has 1 device, 0; MSTAGE_BACKEND=cpu runs "
         "kernels on the CPU regardless";
}

static const Backend *chooseBackend() {
  const std::string &Want = backendSetting().Want;
  const std::string &Arch = backendSetting().Arch;
  if (!backendSetting().Error.empty())
    return new UnavailableBackend(backendSetting().Error);
  // The device settings are checked on every back end, so that a mistake
  // shows before the program meets a GPU.
  if (!visibleDevicesSetting().Error.empty())
    return new UnavailableBackend(visibleDevicesSetting().Error);
  if (!peerAccessSetting().Error.empty())
    return new UnavailableBackend(peerAccessSetting().Error);
  if (!deviceSetting().Error.empty())
    return new UnavailableBackend(deviceSetting().Error);
  // The CPU and PTX-only back ends do not look for a driver at all.
  if (Want == "cpu")
    return cpu("");
  if (Want == "ptx")
    return ptxOnly(Arch.empty() ? "sm_90" : Arch, "MSTAGE_BACKEND=ptx");

  if (CudaDriver *D = CudaDriver::get()) {
    if (!Arch.empty())
      if (std::string Bad = checkArchSetting(Arch); !Bad.empty())
        return new UnavailableBackend(Bad);
    // Compiled once for the oldest architecture among the devices: its PTX
    // loads on the newer ones too.
    std::string For = Arch.empty() ? D->arch() : Arch;
    int Oldest = D->ccMajor() * 10 + D->ccMinor();
    for (unsigned I = 0; Arch.empty() && I < CudaDriver::count(); ++I) {
      const CudaDriver &Other = *CudaDriver::at(I);
      if (int CC = Other.ccMajor() * 10 + Other.ccMinor(); CC < Oldest) {
        Oldest = CC;
        For = Other.arch();
      }
    }
    return new CudaBackend(*D, For);
  }
  std::string Why = CudaDriver::whyUnavailable();
  // A GPU job that names a device the GPUs do not have fails; it does not
  // become a CPU job.
  if (CudaDriver::refusedBySetting())
    return new UnavailableBackend(Why);
  if (Want == "cuda")
    return new UnavailableBackend(
        "MSTAGE_BACKEND=cuda, but there is no usable GPU (" + Why +
        "); MSTAGE_BACKEND=cpu runs kernels on the CPU");
  // auto without a GPU: the other back ends have one device, 0.
  if (std::string Bad = missingDevice(Why); !Bad.empty())
    return new UnavailableBackend(Bad);
  // MSTAGE_ARCH without a GPU keeps meaning PTX-only.
  if (!Arch.empty())
    return ptxOnly(Arch, "no GPU (" + Why + ")");
  return cpu(Why);
}

// Never destroyed: launches from static destructors use it.
static const Backend &chosenBackend() {
  const Backend *B = chooseBackend();
  assert(B && "every setting chooses a back end, if only the unavailable one");
  B->start();
  return *B;
}

// Before main, and before any launch: the runtime's static constructors
// run before the program's.
[[maybe_unused]] static const bool Chooses =
    (setBackendChooser(&chosenBackend), true);

} // namespace mstage::rt

extern "C" MSTAGE_EXPORT const char *
mstage_rt_backend(void) {
  return mstage::rt::backend().name();
}
