//===- StageCheck.cpp - MSTAGE_CHECK=stage: each stage() against its fold ===//
#include "backends/cpu/StageCheck.h"
#include "formats/StageValueText.h"
#include "core/RuntimeError.h"
#include "core/StagedLaunch.h"
#include "backends/cpu/CpuLaunch.h"
#include "backends/cpu/CpuThread.h"
#include "support/Settings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "support/Export.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

using namespace mstage::rt;

namespace {

// What the checker's calls of __mstage_stage_check compare against: the
// value each site's evaluator gives for the launch.
struct StageCheckContext {
  const RegisteredKernel *K = nullptr;
  llvm::SmallVector<llvm::StringRef, 4> Folded; // one per site
  std::atomic<bool> Failed{false};
  std::atomic<uint64_t> Mismatches{0};
  std::mutex Lock;
  std::string Message; // the first mismatch, after the kernel's name
};

std::string where(const CpuThread *T) {
  if (!T)
    return "";
  auto Triple = [](const unsigned *V) {
    return "(" + std::to_string(V[0]) + "," + std::to_string(V[1]) + "," +
           std::to_string(V[2]) + ")";
  };
  return " in thread " + Triple(T->Tid) + " of block " + Triple(T->Ctaid);
}

} // namespace

extern "C" MSTAGE_EXPORT void __mstage_stage_check(void *Context, uint32_t Site,
                                                   const void *Value) {
  auto &C = *static_cast<StageCheckContext *>(Context);
  const auto &Sites = C.K->Blob.StageSites;
  if (Site >= Sites.size())
    return; // the checker and the blob come from one object
  llvm::StringRef Folded = C.Folded[Site];
  if (std::memcmp(Folded.data(), Value, Folded.size()) == 0)
    return;
  C.Mismatches.fetch_add(1, std::memory_order_relaxed);
  if (C.Failed.exchange(true))
    return;
  llvm::StringRef Got(static_cast<const char *>(Value), Folded.size());
  std::lock_guard<std::mutex> G(C.Lock);
  C.Message = "MSTAGE_CHECK=stage: the stage() at " +
              siteLocation(C.K->Blob, Site) + " gave " +
              mstage::formatStageValue(Sites[Site], Got) +
              where(CurrentCpuThread) + ", but " +
              mstage::formatStageValue(Sites[Site], Folded) +
              " was folded into the kernel for this launch; a staged value "
              "must be the same in every execution of its stage() call";
}

llvm::Error mstage::rt::launchOnCpuStageChecked(
    const RegisteredKernel &K, mstage_invoke_fn Invoke, void *const *Params,
    const mstage_launch_config &Config, double *KernelMs) {
  const CheckSettings &S = checkSettings();
  if (!S.Error.empty())
    return withKernel(failure(S.Error), K);
  uint32_t NumSites = K.Blob.StageSites.size();
  if (!S.Stage || NumSites == 0 || !K.Record->stage_checker)
    return launchOnCpu(K, Invoke, Params, Config, KernelMs);

  // The values a GPU launch would fold, from the same evaluators.
  StagedLaunch Staged(K, Params, Config);
  if (Staged.GaveUp >= 0)
    return evaluatorGaveUp(K, uint32_t(Staged.GaveUp));
  StageCheckContext C;
  C.K = &K;
  C.Folded = Staged.Values;
  llvm::SmallVector<void *, 8> Checked(Params, Params + K.Blob.NumParams);
  Checked.push_back(&C);
  if (llvm::Error E = launchOnCpu(K, K.Record->stage_checker, Checked.data(),
                                  Config, KernelMs))
    return E;
  if (C.Failed.load())
    return withKernel(
        failure(C.Message + " (" + std::to_string(C.Mismatches.load()) +
                " execution" + (C.Mismatches.load() == 1 ? "" : "s") +
                " differed)"),
        K);
  return llvm::Error::success();
}
