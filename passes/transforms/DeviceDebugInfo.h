//===- DeviceDebugInfo.h - Source lines that device code keeps ------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEDEBUGINFO_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEDEBUGINFO_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace mstage {

// What the device module's debug information becomes (retargetToNVPTX):
// line directives only (.file/.loc in the PTX, as nvcc -lineinfo), so ptxas
// optimizes as without them; full DWARF only when the user asked for -g at
// -O0 (FullDebugAtO0, as nvcc -G: ptxas then makes debuggable, slower code).
// A module without a compile unit loses every stray !dbg attachment.
void prepareDeviceDebugInfo(llvm::Module &M, bool FullDebugAtO0);

// Whether M kept full debug information (after prepareDeviceDebugInfo: the
// unit was built with -g at -O0). Its kernels' blobs say so (KernelBlob's
// DebugAtO0), and the JIT then compiles them without optimization.
bool keepsFullDebugInfo(const llvm::Module &M);

// Gives Wrapper, a function mstage made that calls Entry, a subprogram of
// its own at Entry's line, and its calls to Entry that line, so that the
// lines of Entry's body survive inlining into it. Nothing without debug
// information.
void describeWrapper(llvm::Function &Wrapper, const llvm::Function &Entry);

// PTX without the labels that NVPTX writes for DWARF ranges ($L__tmp*,
// $L__func_begin*, $L__func_end*) when it has no DWARF sections to use them:
// ptxas splits its scheduling regions at every label, which costs registers
// (measured: 26 became 28 in a small kernel); nvcc -lineinfo writes none.
std::string dropUnusedDebugLabels(llvm::StringRef PTX);

} // namespace mstage

#endif
