//===- JitCompiler.h - Specialize a kernel's bitcode and emit PTX ---------===//
#ifndef MSTAGE_RUNTIME_JIT_JITCOMPILER_H
#define MSTAGE_RUNTIME_JIT_JITCOMPILER_H

#include "formats/KernelBlob.h"
#include "formats/LaunchConfig.h"
#include "transforms/AccessFootprint.h"
#include "transforms/KernelSpecialization.h"
#include "transforms/LaunchFacts.h"

#include "llvm/Support/Error.h"

#include <chrono>
#include <string>

namespace mstage::rt {

struct JitOptions {
  std::string Arch = "sm_90"; // the device's sm_XY
  // Tier 0: O1 without loop transforms and NVPTX's codegen at -O0, for code
  // that runs only until the full compile (tier 1) replaces it.
  bool Quick = false;
  // The kernel begins with griddepcontrol.wait and launch_dependents
  // (transforms/KernelEntryWait.h): launched programmatically (MSTAGE_PDL).
  bool EntryWait = false;
};

// What one launch fixes: the staged values (one per stage site, in order)
// and the launch configuration, whose flags also ask for fast math (as nvcc
// --use_fast_math, FastMath.h).
struct Specialization {
  llvm::ArrayRef<llvm::StringRef> StagedValues;
  LaunchConfig Config;
  // False: the code reads %dynamic_smem_size (mstage-ptx without --shared).
  bool FoldSharedBytes = true;
  // One per pointer slot of the kernel, or none (LaunchFacts.h).
  llvm::ArrayRef<SlotFact> Facts;
  // False: fold nothing, so the code reads its staged values and launch
  // extents at run time (mstage-ptx --diff shows what folding removed).
  bool Fold = true;
};

struct JitOutput {
  std::string PTX;
  std::string OptimizedIR; // filled only when WantIR
  double OptimizeMs = 0, CodegenMs = 0;
  // The read of the kernel's bitcode (and its link with the device
  // functions of other units it calls), the first part of OptimizeMs.
  double ReadIrMs = 0;
  // Where the phases began, for MSTAGE_TRACE=chrome (TraceEvents.h).
  std::chrono::steady_clock::time_point OptimizeStart, CodegenStart;
};

// An error, listing the architectures NVPTX knows, unless it compiles for
// Arch ("sm_90").
llvm::Error checkArch(llvm::StringRef Arch);

// Parses the kernel's bitcode, folds in the specialization, links the
// libdevice functions it uses, runs O3 (or Options.Quick's pipeline; none
// for a kernel built with -g at -O0, KernelBlob's DebugAtO0, whose PTX
// keeps full DWARF for cuda-gdb to step through) and emits PTX. Thread-safe:
// compiles on several threads run at once. A fatal error or a crash inside LLVM
// is an error naming the kernel, not the end of the process.
llvm::Expected<JitOutput> compileKernel(const KernelBlob &Kernel,
                                        const Specialization &Spec,
                                        const JitOptions &Options, bool WantIR);

// The footprint of a launch of Kernel (transforms/AccessFootprint.h): its
// bitcode with Spec's staged values and configuration folded in and
// Params (each parameter's bytes, the lambda object first) bound, optimized
// as for Arch. An error names the kernel; the caller takes the launch to
// touch any memory.
llvm::Expected<AccessFootprint>
launchFootprint(const KernelBlob &Kernel, const Specialization &Spec,
                llvm::ArrayRef<llvm::StringRef> Params, llvm::StringRef Arch);

// Compiles a one-line kernel for Arch and keeps its target machine, so that
// the first real compile does not pay for what every compile makes first.
// Errors are ignored: the real compile reports them.
void warmUpJit(llvm::StringRef Arch);

} // namespace mstage::rt

#endif
