//===- ParamSpace.cpp - Parameters over the kernel-parameter space --------===//
#include "launch/ParamSpace.h"
#include "core/Backend.h"
#include "core/Stream.h"
#include "formats/AotImage.h"
#include "launch/LaunchMemo.h"
#include "transforms/CaptureInMemory.h"

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
  const Backend &B = backend();
  LaunchMemo &Memo = launchMemo(*L.K);
  if (!Memo.Placed) {
    Memo.InMemory = paramsInMemory(L.paramSizes(), Staged.stagedBytes().size(),
                                   B.paramLimit());
    Memo.Placed = true;
  }
  assert(Memo.InMemory == paramsInMemory(L.paramSizes(),
                                         Staged.stagedBytes().size(),
                                         B.paramLimit()) &&
         "a kernel's parameter sizes and staged bytes are its type's");
  L.InMemory = Memo.InMemory;
  if (!L.InMemory)
    return llvm::Error::success();
  Times.BytesInMemory = bytesInMemory(L.paramSizes(), L.InMemory);
  if (L.S->capturing())
    return notCapturable(L, B.arch(), L.InMemory);
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
