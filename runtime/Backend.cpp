//===- Backend.cpp - Where launches go: a GPU, the CPU, PTX only, nowhere -===//
#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "cpu/CpuThreadPool.h"
#include "cuda/CudaDriver.h"
#include "jit/CompilePool.h"
#include "jit/JitCompiler.h"
#include "support/Export.h"
#include "support/Warning.h"

#include <cstdio>
#include <cstdlib>

namespace mstage::rt {

// What is wrong with MSTAGE_ARCH=Arch, or "".
static std::string checkArchSetting(const std::string &Arch) {
  if (llvm::Error E = checkArch(Arch))
    return "MSTAGE_ARCH=" + llvm::toString(std::move(E));
  return "";
}

static Backend ptxOnly(const std::string &Arch, const std::string &Why) {
  Backend B;
  if (std::string Bad = checkArchSetting(Arch); !Bad.empty()) {
    B.Reason = Bad;
    return B;
  }
  B.Kind = BackendKind::PtxOnly;
  B.Arch = Arch;
  B.Reason = Why;
  warn(Why + "; compiling kernels for " + Arch +
       " to PTX only, nothing is executed");
  return B;
}

static Backend cpu(const std::string &Why) {
  Backend B;
  B.Kind = BackendKind::Cpu;
  B.Reason = Why;
  if (!Why.empty())
    warn("no GPU (" + Why + "); running kernels on the CPU (" +
         llvm::Twine(cpuThreadCount()) +
         " threads); MSTAGE_BACKEND=cpu chooses it silently");
  return B;
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

static Backend chooseBackend() {
  const std::string &Want = backendSetting().Want;
  const std::string &Arch = backendSetting().Arch;
  Backend B;
  if (!backendSetting().Error.empty()) {
    B.Reason = backendSetting().Error;
    return B;
  }
  // The device settings are checked on every back end, so that a mistake
  // shows before the program meets a GPU.
  if (!visibleDevicesSetting().Error.empty()) {
    B.Reason = visibleDevicesSetting().Error;
    return B;
  }
  if (!peerAccessSetting().Error.empty()) {
    B.Reason = peerAccessSetting().Error;
    return B;
  }
  if (!deviceSetting().Error.empty()) {
    B.Reason = deviceSetting().Error;
    return B;
  }
  // The CPU and PTX-only back ends do not look for a driver at all.
  if (Want == "cpu")
    return cpu("");
  if (Want == "ptx")
    return ptxOnly(Arch.empty() ? "sm_90" : Arch, "MSTAGE_BACKEND=ptx");

  if (CudaDriver *D = CudaDriver::get()) {
    if (!Arch.empty())
      if (std::string Bad = checkArchSetting(Arch); !Bad.empty()) {
        B.Reason = Bad;
        return B;
      }
    B.Kind = BackendKind::Gpu;
    B.Driver = D;
    // Compiled once for the oldest architecture among the devices: its PTX
    // loads on the newer ones too.
    B.Arch = Arch.empty() ? D->arch() : Arch;
    int Oldest = D->ccMajor() * 10 + D->ccMinor();
    for (unsigned I = 0; Arch.empty() && I < CudaDriver::count(); ++I) {
      const CudaDriver &Other = *CudaDriver::at(I);
      if (int CC = Other.ccMajor() * 10 + Other.ccMinor(); CC < Oldest) {
        Oldest = CC;
        B.Arch = Other.arch();
      }
    }
    return B;
  }
  std::string Why = CudaDriver::whyUnavailable();
  // A GPU job that names a device the GPUs do not have fails; it does not
  // become a CPU job.
  if (CudaDriver::refusedBySetting()) {
    B.Reason = Why;
    return B;
  }
  if (Want == "cuda") {
    B.Reason = "MSTAGE_BACKEND=cuda, but there is no usable GPU (" + Why +
               "); MSTAGE_BACKEND=cpu runs kernels on the CPU";
    return B;
  }
  // auto without a GPU: the other back ends have one device, 0.
  if (std::string Bad = missingDevice(Why); !Bad.empty()) {
    B.Reason = Bad;
    return B;
  }
  // MSTAGE_ARCH without a GPU keeps meaning PTX-only.
  if (!Arch.empty())
    return ptxOnly(Arch, "no GPU (" + Why + ")");
  return cpu(Why);
}

// Never destroyed: launches from static destructors read it.
const Backend &backend() {
  static const Backend &B = *new Backend([] {
    Backend B = chooseBackend();
    if (B.Kind == BackendKind::Gpu || B.Kind == BackendKind::PtxOnly)
      startCompilePool(B.Kind == BackendKind::Gpu, B.Arch);
    if (B.Kind == BackendKind::Gpu)
      preloadGenericCode();
    return B;
  }());
  return B;
}

unsigned deviceCount() {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return CudaDriver::count();
  return B.Kind == BackendKind::Unavailable ? 0 : 1;
}

const char *backendName(BackendKind Kind) {
  switch (Kind) {
  case BackendKind::Gpu:
    return "cuda";
  case BackendKind::Cpu:
    return "cpu";
  case BackendKind::PtxOnly:
    return "ptx";
  case BackendKind::Unavailable:
    return "none";
  }
  return "none";
}

} // namespace mstage::rt

extern "C" MSTAGE_EXPORT const char *mstage_rt_backend(void) {
  return mstage::rt::backendName(mstage::rt::backend().Kind);
}
