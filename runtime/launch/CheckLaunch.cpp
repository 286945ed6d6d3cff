//===- CheckLaunch.cpp - The kernel, its parameters and configuration -----===//
#include "launch/CheckLaunch.h"
#include "core/Backend.h"
#include "core/LaunchLimits.h"
#include "launch/LaunchMemo.h"
#include "support/Settings.h"

#include "llvm/Support/raw_ostream.h"
#include "support/Warning.h"

#include <cassert>
#include <mutex>
#include <string>

namespace mstage::rt {

static constexpr RuntimeFailure::Join Clause = RuntimeFailure::Join::Clause;

// MSTAGE_BOUNDS_CHECK is a macro (mstage/bounds_check.hpp), which reads
// like one of the MSTAGE_* variables: set in the environment, it is said once
// that it does nothing there.
static void warnAboutBoundsCheckVariable() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    if (boundsCheckVariableSet())
      warn("MSTAGE_BOUNDS_CHECK is set in the environment, "
           "where it changes nothing: bounds checks are chosen "
           "when the program is compiled (mstage++ "
           "-DMSTAGE_BOUNDS_CHECK=1, or 0)");
  });
}

// Launch extents a GPU cannot take are rejected before compiling, on every
// back end (LaunchLimits.h).
static llvm::Error checkConfig(const mstage_launch_config &C,
                               const Backend &B) {
  if (C.flags & ~MSTAGE_LAUNCH_FAST_MATH)
    return failure("has unknown launch flags " + std::to_string(C.flags) +
                       "; rebuild the program with one mstage version",
                   Clause);
  for (int I = 0; I < 3; ++I)
    if (C.grid[I] == 0 || C.block[I] == 0)
      return failure(
          "has an empty launch configuration (grid " +
              std::to_string(C.grid[0]) + "x" + std::to_string(C.grid[1]) +
              "x" + std::to_string(C.grid[2]) + ", block " +
              std::to_string(C.block[0]) + "x" + std::to_string(C.block[1]) +
              "x" + std::to_string(C.block[2]) + ")",
          Clause);
  return checkLaunchShape(C, launchLimits(B));
}

llvm::Expected<const RegisteredKernel *> findRunnable(const void *HostEntry) {
  std::string Why;
  const RegisteredKernel *K = findKernel(HostEntry, Why);
  if (!K)
    return failure("cannot launch a kernel: " + Why);
  if (!backend().usable())
    return withKernel(failure("cannot run: " + backend().reason(), Clause), *K);
  return K;
}

// The settings that fail every launch when they are malformed.
static llvm::Error checkLaunchSettings() {
  for (const std::string *Err :
       {&fastMathSetting().Error, &traceSetting().Error,
        &launchBlockingSetting().Error, &jitSettings().Error,
        &statsSetting().Error, &pdlSetting().Error, &occupancySetting().Error})
    if (!Err->empty())
      return failure(*Err);
  return llvm::Error::success();
}

llvm::Error checkLaunch(const void *HostEntry, uint32_t NumParams,
                        const LaunchConfig &Config,
                        const RegisteredKernel *&K,
                        LaunchConfig &Effective) {
  llvm::Expected<const RegisteredKernel *> Found = findRunnable(HostEntry);
  if (!Found)
    return Found.takeError();
  K = *Found;
  assert(K && "findRunnable gives a registered kernel or fails");
  const Backend &B = backend();
  if (NumParams != K->Blob.NumParams)
    return withKernel(failure("was launched with " + std::to_string(NumParams) +
                                  " parameters but compiled for " +
                                  std::to_string(K->Blob.NumParams) +
                                  "; rebuild the program with one mstage "
                                  "version",
                              Clause),
                      *K);
  // What is checked below depends on the configuration, the kernel and the
  // process's settings alone: a configuration that passed is not checked
  // again.
  LaunchMemo &Memo = launchMemo(*K);
  if (!Memo.checked(Config)) {
    warnAboutBoundsCheckVariable();
    llvm::Error Bad = checkConfig(Config, B);
    if (!Bad) // shared_array adds to shared_bytes (LaunchLimits.h)
      Bad = checkSharedMemory(Config, staticSharedBytes(*K), launchLimits(B));
    if (!Bad)
      Bad = checkLaunchSettings();
    if (Bad)
      return withKernel(std::move(Bad), *K);
    Memo.noteChecked(Config);
  }
  Effective = Config;
  // MSTAGE_FAST_MATH=1 is fast math for every launch; it then takes part in
  // the cache key as the kernel's own switch does.
  if (fastMathSetting().Value)
    Effective.setFastMath(true);
  return llvm::Error::success();
}

} // namespace mstage::rt
