//===- ParamSpace.cpp - Parameters over the kernel-parameter space --------===//
#include "launch/ParamSpace.h"
#include "formats/AotImage.h"
#include "transforms/CaptureInMemory.h"
#include "core/Backend.h"
#include "core/Stream.h"

#include <cassert>
#include <string>

namespace mstage::rt {

// Why a launch whose parameters InMemory are copied to device memory at
// each launch cannot be captured into a graph (the copy is from the
// caller's memory, gone when a replay runs).
static llvm::Error notCapturable(const LaunchRequest &L,
                                 const std::string &Arch, uint64_t InMemory) {
  return withKernel(
      failure("has " + std::string(InMemory == 1 ? "a capture" : "parameters") +
                  " of " +
                  std::to_string(bytesInMemory(L.paramSizes(), InMemory)) +
                  " bytes, over " + Arch + "'s kernel-parameter limit of " +
                  std::to_string(kernelParamLimit(Arch)) +
                  " bytes: each launch copies it to device memory, which a "
                  "stream capture cannot record; launch it outside the "
                  "capture, or pass the data in device memory (a view)",
              RuntimeFailure::Join::Clause),
      *L.K);
}

llvm::Error placeParams(LaunchRequest &L, const StagedLaunch &Staged,
                        LaunchTimes &Times) {
  assert(L.S && "resolveArguments resolves the stream first");
  const std::string &Arch = backend().arch();
  // Parsed once: one back end per process (about 100 instructions a launch).
  static const uint64_t Limit = kernelParamLimit(Arch);
  L.InMemory =
      paramsInMemory(L.paramSizes(), Staged.stagedBytes().size(), Limit);
  if (!L.InMemory)
    return llvm::Error::success();
  Times.BytesInMemory = bytesInMemory(L.paramSizes(), L.InMemory);
  if (L.S->capturing())
    return notCapturable(L, Arch, L.InMemory);
  return llvm::Error::success();
}

llvm::Error checkCapturableOnCpu(const LaunchRequest &L) {
  if (uint64_t InMemory = paramsInMemory(
          L.paramSizes(), mstage::stagedParamSize(L.K->Blob.StageSites),
          kernelParamLimit("sm_90")))
    return notCapturable(L, "sm_90", InMemory);
  return llvm::Error::success();
}

} // namespace mstage::rt
