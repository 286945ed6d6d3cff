//===- MakeCode.h - One specialization's code, from disk or the JIT -------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_MAKECODE_H
#define MSTAGE_RUNTIME_LAUNCH_MAKECODE_H

#include "cache/MemoryCache.h"
#include "inspect/Trace.h"
#include "launch/CodeRequest.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace mstage::rt {

// Makes the code of R's specialization into Out: from the disk cache when
// it has it, else with the JIT (and then into the disk cache), and loads it
// on R's device (LoadCode.h). Times gets where it came from and what it
// cost; MSTAGE_DUMP's files are written.
// BeforeCompile, when given, runs on a miss before the JIT compiles: the
// background compile makes tier 0 there (only when the disk has nothing).
llvm::Error makeCode(const CodeRequest &R, CompiledKernel &Out,
                     LaunchTimes &Times,
                     llvm::function_ref<void()> BeforeCompile = {});

// Whether K's specializations get tier-0 code (MSTAGE_JIT_TIERS): not a
// large kernel's, whose tier-0 PTX would reach DriverJitClaim::LargePtxBytes.
// Judged from K's weight (formats/KernelWork.h) before LLVM runs; MSTAGE_TRACE
// says when it gets none.
bool quickCodeWanted(const RegisteredKernel &K);

// Tier 0 (MSTAGE_JIT_TIERS): R's specialization through the JIT's quick
// pipeline, loaded into Out for launches to run until makeCode's code
// replaces it. Never cached; its IR is not dumped. False, with Out
// untouched, for PTX of DriverJitClaim::LargePtxBytes or more (a kernel
// that quickCodeWanted misjudged).
llvm::Expected<bool> makeQuickCode(const CodeRequest &R, CompiledKernel &Out,
                                   LaunchTimes &Times);

} // namespace mstage::rt

#endif
