//===- LaunchOnCpu.cpp - A launch on the CPU back end ---------------------===//
#include "launch/LaunchOnCpu.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "inspect/TraceEvents.h"
#include "launch/CpuRecording.h"
#include "launch/ParamSpace.h"

namespace mstage::rt {

int launchOnCpu(const LaunchRequest &L, double *KernelMs) {
  Stream &S = *L.S;
  if (S.capturing()) {
    if (llvm::Error Err = checkCapturableOnCpu(L))
      return failWith(std::move(Err));
    return recordCpuLaunch(L);
  }
  StreamSpan Run(SpanKind::Kernel, S.id());
  return toStatus(
      backend().runHostBody(*L.K, L.Invoke, L.Params, L.Config, KernelMs));
}

} // namespace mstage::rt
