//===- StageCheck.h - MSTAGE_CHECK=stage: each stage() against its fold --===//
//
// A stage() site is evaluated once per launch, by its host evaluator, and
// that value is folded into the kernel. With MSTAGE_CHECK=stage, a launch on
// the CPU back end runs the kernel's stage checker (the body with a call
// after every stage() site, see passes/transforms/StageSlicing.h) instead of
// its plain body, and every execution of a site in every thread is compared
// with the value the evaluator gives for the launch, the value a GPU would have
// had folded in. A difference fails the launch, naming the site's file:line.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_STAGECHECK_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_STAGECHECK_H

#include "core/KernelRegistry.h"

#include "mstage/abi.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mstage::rt {

// launchOnCpu, with the stage check when MSTAGE_CHECK asks for it and K has
// stage() sites.
llvm::Error launchOnCpuStageChecked(const RegisteredKernel &K,
                                    mstage_invoke_fn Invoke,
                                    void *const *Params,
                                    const mstage_launch_config &Config,
                                    double *KernelMs);

} // namespace mstage::rt

#endif
