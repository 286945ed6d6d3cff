//===- Backend.cpp - Where launches go: a GPU, PTX only, or nowhere -------===//
#include "Backend.h"
#include "CudaDriver.h"

#include <cstdio>
#include <cstdlib>

namespace mstage::rt {

static Backend chooseBackend() {
  Backend B;
  const char *ArchEnv = std::getenv("MSTAGE_ARCH");
  std::string Arch = ArchEnv ? ArchEnv : "";
  if (CudaDriver *D = CudaDriver::get()) {
    B.Kind = BackendKind::Gpu;
    B.Driver = D;
    B.Arch = Arch.empty() ? D->arch() : Arch;
    return B;
  }
  B.Reason = CudaDriver::whyUnavailable();
  if (Arch.empty()) {
    B.Reason = "no usable GPU (" + B.Reason +
               "); set MSTAGE_ARCH=sm_90 (or another sm_XY) to compile "
               "kernels to PTX without running them";
    return B;
  }
  if (Arch.rfind("sm_", 0) != 0) {
    B.Reason = "MSTAGE_ARCH='" + Arch + "' is not an sm_XY architecture";
    return B;
  }
  B.Kind = BackendKind::PtxOnly;
  B.Arch = Arch;
  std::fprintf(stderr,
               "mstage: no GPU (%s); compiling kernels for %s to PTX only, "
               "nothing is executed\n",
               B.Reason.c_str(), Arch.c_str());
  return B;
}

const Backend &backend() {
  static const Backend B = chooseBackend();
  return B;
}

} // namespace mstage::rt
