//===- DeviceOptimizer.h - Optimize device modules and emit PTX -----------===//
//
// Shared by the compile-time extraction (a light pipeline that keeps loops
// intact for the JIT to specialize) and the runtime (O3, then PTX).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEOPTIMIZER_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEOPTIMIZER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// An error, listing the architectures mstage supports (those the NVPTX back
// end knows from sm_50 on), unless Arch ("sm_90") is one of them. The NVPTX
// target must be registered.
llvm::Error checkNVPTXArch(llvm::StringRef Arch);

// An NVPTX target machine for Arch ("sm_90"), which checkNVPTXArch accepts.
// The NVPTX target must be registered (clang does this; the runtime calls
// LLVMInitializeNVPTX*).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(llvm::StringRef Arch);

// Runs the default pipeline at Level (O0: clang -O0's). Without
// LoopTransforms, loops are neither unrolled nor vectorized, nor kernels
// versioned on their arguments' tests (UniformVersioning.h): used before the
// trip counts are known.
void optimizeDeviceModule(llvm::Module &M, llvm::TargetMachine &TM,
                          llvm::OptimizationLevel Level, bool LoopTransforms);

// Removes what no kernel or exported function reaches (LLVM's GlobalDCE): in
// code that is not optimized (a unit built with -g at -O0), the host
// evaluators of stage() that the extraction cloned with the kernel, and the
// calls they make.
void removeUnreachedCode(llvm::Module &M);

// Emits PTX assembly for M.
llvm::Expected<std::string> emitPTX(llvm::Module &M, llvm::TargetMachine &TM);

// Runs FPM on F with every analysis registered (no target machine): the
// scalar cleanups the extraction passes need on single functions.
void runFunctionPasses(llvm::Function &F, llvm::FunctionPassManager &FPM);

} // namespace mstage

#endif
