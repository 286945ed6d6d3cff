//===- StageSlicing.h - Split stage() sites into host evaluators ----------===//
//
// A stage() call in a kernel becomes, at compile time:
//  - in the host object, an evaluator: the slice of the kernel that computes
//    the call's operands, cut out as an ordinary host function
//      int eval(void *const *args, const mstage_launch_config *config,
//               void *result);
//    (mstage_evaluator_fn), which reads the configuration at the offsets
//    that LaunchConfig.h gives;
//  - in the device module, a copy from a placeholder global
//    (__mstage_stage.<i>) that the JIT fills with the evaluator's result.
// A slice may read kernel arguments, captures, constants, the launch
// configuration and earlier staged values; anything that depends on the
// thread or block index, shared memory, device memory or atomics is a
// compile error at the stage() call.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_STAGESLICING_H
#define MSTAGE_PASSES_TRANSFORMS_STAGESLICING_H

#include "formats/KernelBlob.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallInst;
class Function;
class Module;
} // namespace llvm

namespace mstage {

inline constexpr const char *StagePlaceholderPrefix = "__mstage_stage.";
// A staged kernel's body: its entry's copy, named this and the kernel's.
inline constexpr const char *StagedBodyPrefix = "__mstage_body.";

struct StageSiteIR {
  llvm::CallInst *Call = nullptr;      // the stage_eval call in the body
  llvm::Function *Evaluator = nullptr; // in the host module
  StageSite Info;
};

struct StagedBody {
  // The kernel entry with the calls inlined that lead to its stage() sites
  // or compute what they read (at -O0, all calls but stage()'s own), so that
  // each site sees what it depends on; the entry itself when the kernel has
  // no stage() sites.
  llvm::Function *Body = nullptr;
  bool OwnsBody = false; // Body is a temporary to erase after extraction
  // Body still calls the kernel's functions that no site needs: its device
  // module's copy is to be flattened (flattenBody).
  bool CalleesLeft = false;
  llvm::SmallVector<StageSiteIR, 4> Sites;
};

// The stage_eval instantiations of M with their staged types.
using StageFunctions = llvm::DenseMap<llvm::Function *, StageSite>;
StageFunctions findStageFunctions(llvm::Module &M);

// Prepares Entry's stage sites and their evaluators (named after
// KernelName). A site's source line is taken in KernelFile, the file of the
// kernel's lambda, when its call chain passes through it (stage() called
// through a helper in a header), else where the stage() call is. With
// CheckLoops, a site whose value varies in a loop is an error (the plugin's
// no-stage-loop-check turns it off). Reports errors through the context and
// returns false.
bool prepareStagedBody(llvm::Module &M, llvm::Function &Entry,
                       llvm::StringRef KernelName, llvm::StringRef KernelFile,
                       const StageFunctions &StageFns, bool CheckLoops,
                       StagedBody &Out);

// Inlines all of Body's calls (but recursion's and those of StageFns) and
// simplifies it: what a staged kernel's body is in its device module, from
// which the optimizer starts.
void flattenBody(llvm::Function &Body, const StageFunctions &StageFns = {});

// MSTAGE_CHECK=stage: a host function void(void *const *params) that runs
// the kernel's body (Entry, with the calls that lead to its sites inlined) as
// the CPU back end does, but calls __mstage_stage_check(context, site, value)
// after each stage() site with the value it computed there, for the runtime
// to compare with the value that was folded. params are the launch's
// parameters followed by the context.
llvm::Function *buildStageChecker(llvm::Module &M, llvm::Function &Entry,
                                  const StagedBody &Staged,
                                  const StageFunctions &StageFns,
                                  const llvm::Twine &Name);

// In a device module: replaces each stage site call (in order) with a copy
// from its placeholder global.
void replaceStageSites(llvm::Module &Dev,
                       llvm::ArrayRef<llvm::CallInst *> Calls,
                       llvm::ArrayRef<StageSiteIR> Sites);

} // namespace mstage

#endif
