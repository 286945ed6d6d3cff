//===- DeviceCodegen.h - From a device module to PTX ----------------------===//
//
// The steps after folding that the JIT runs on a specialization and the
// extraction pass on a unit's ahead-of-time generic kernels: libdevice for
// the math calls, the reflect queries, internalizing all but the kernels,
// the check that every call is resolved, O3 and PTX.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICECODEGEN_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICECODEGEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// Links the libdevice functions that M calls (LibDevice is libdevice's
// bitcode), sets the reflect flags for FastMath (else IEEE-exact sqrt and
// division), internalizes everything but the kernels, checks that every
// call has a definition, and runs O3 (Quick: O1 without loop transforms,
// the JIT's tier 0, which is replaced by O3's code; Debug: O0, for a unit
// built with -g at -O0, KernelBlob's DebugAtO0). Errors the passes report
// go to M's context's diagnostic handler: the caller checks it.
llvm::Error optimizeDeviceCode(llvm::Module &M, llvm::TargetMachine &TM,
                               llvm::StringRef LibDevice, bool FastMath,
                               bool Quick = false, bool Debug = false);

// optimizeDeviceCode, then PTX (with Debug, NVPTX's code generation at -O0,
// which keeps every variable in memory for the debugger).
llvm::Expected<std::string>
compileDeviceCode(llvm::Module &M, llvm::TargetMachine &TM,
                  llvm::StringRef LibDevice, bool FastMath, bool Debug = false);

} // namespace mstage

#endif
