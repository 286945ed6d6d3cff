//===- DeviceExports.h - Device code shared between translation units -----===//
//
// A kernel may call a function defined in another file of the program, when
// every file is compiled by mstage++. Each unit embeds, beside its kernel
// blobs, one device link blob (KernelBlob.h): the device code of the
// functions it exports, and the functions that its kernels and exports call
// without defining them (imports). The runtime links the exports a kernel
// needs into its module before optimization (runtime/jit/DeviceLibrary.h).
//
// What is exported: the definitions the plugin tagged (KernelChecker.h says
// which: externally visible, not inline, in the program's own files, and
// passing the kernel checks), with what they call that the unit defines.
// Host code fails the checks, so it is not embedded.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEEXPORTS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEEXPORTS_H

#include "formats/KernelBlob.h"
#include "transforms/StageSlicing.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalValue;
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// The plugin's tag on a definition that other units' kernels may call.
inline constexpr const char *DeviceExportAnnotation = "mstage.device_export";

// Every global value that Entry reaches through calls, references and the
// initializers of the globals it uses (stage() functions run on the host and
// are not followed).
llvm::SetVector<llvm::GlobalValue *>
collectReachable(llvm::Function &Entry, const StageFunctions &StageFns);

// The steps that turn code cloned from the host module into device code:
// nvptx64, mstage's builtins, assert, atomics' scopes and printf.
llvm::Error lowerForDevice(llvm::Module &Dev);

// file:line:col of a call to each function that M declares, taken while M
// still has its line tables (lowering for the device strips them).
llvm::StringMap<std::string> callLocations(llvm::Module &M);

// The functions among Reached that are called but not defined, and that
// neither the target nor libdevice provides: other units' exports are to
// define them. Requester names who calls them; Locations (callLocations)
// where.
std::vector<DeviceImport>
findImports(llvm::ArrayRef<llvm::GlobalValue *> Reached,
            llvm::StringRef Requester, bool FromExport,
            const llvm::StringMap<std::string> &Locations);

// Fills Link with the unit's exports and their imports; their device module
// goes to Bitcode, which Link.Bitcode then points to. Errors are reported
// through M's context.
void buildDeviceExports(llvm::Module &M, const StageFunctions &StageFns,
                        llvm::TargetMachine *TM, DeviceLinkBlob &Link,
                        std::string &Bitcode);

} // namespace mstage

#endif
