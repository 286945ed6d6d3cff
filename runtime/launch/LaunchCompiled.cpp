//===- LaunchCompiled.cpp - A launch on a back end that compiles ----------===//
#include "launch/LaunchCompiled.h"
#include "core/Backend.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "launch/CpuRecording.h"
#include "launch/LaunchOnGpu.h"

#include <cassert>

namespace mstage::rt {

int launchCompiled(const LaunchRequest &L, const StagedLaunch &Staged,
                   const LaunchCode &Code, bool TimeKernel, double &KernelMs) {
  assert((Code.Compiled || Code.Generic) && "findOrMakeCode found code");
  if (!backend().executes())
    return L.S->capturing() ? recordCpuLaunch(L) : 0;
  return toStatus(launchOnGpu(L, Staged, Code, TimeKernel, KernelMs));
}

} // namespace mstage::rt
