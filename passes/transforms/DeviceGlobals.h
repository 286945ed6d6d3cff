//===- DeviceGlobals.h - device_global variables as module variables ------===//
//
// mstage::device_global<T> and mstage::constant<T> (mstage/device_global.hpp)
// are host variables that the Clang plugin annotates ("mstage.device_global",
// "mstage.device_constant"). Kernel code uses the host variable; in a device
// module it becomes a module variable that the runtime finds by name after
// loading (cuModuleGetGlobal):
//   - a constant is the object in address space 4, a `.const` variable that
//     the runtime fills with the device's value at every load;
//   - a device global is a pointer in address space 1, a `.global .u64`
//     variable that the runtime sets to the device's one object, so that
//     every module (each specialization, the generic code) shares it; the
//     kernel loads the pointer once (an invariant load).
// Both are weak_odr (`.weak` in PTX): visible, so that neither the optimizer
// folds them nor the JIT's internalization drops their names, and one
// definition where the generic code links every kernel of a unit into one
// module.
//
// An `extern` declaration of another unit's variable has no annotation in
// the IR (Clang emits annotations of definitions only): the plugin adds an
// internal marker, `static T *const __mstage_extern_global.N = &g;`,
// annotated "mstage.device_global.extern" (or ".constant.extern"), which
// markDeviceGlobals reads and erases. The declaration's module variable has
// the definition's name, and the unit's record lists it too, so that the
// runtime binds it in this unit's modules to the one object of each device.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEGLOBALS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEGLOBALS_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class GlobalValue;
class GlobalVariable;
class Module;
} // namespace llvm

namespace mstage {

inline constexpr const char *DeviceGlobalAnnotation = "mstage.device_global";
inline constexpr const char *DeviceConstantAnnotation =
    "mstage.device_constant";
// On the plugin's marker of an extern declaration (its initializer is the
// declared variable's address).
inline constexpr const char *ExternDeviceGlobalAnnotation =
    "mstage.device_global.extern";
inline constexpr const char *ExternDeviceConstantAnnotation =
    "mstage.device_constant.extern";

// One annotated host variable of the unit.
struct DeviceGlobalInfo {
  llvm::GlobalVariable *Host;
  std::string DeviceName; // the module variable's name
  bool Constant;
  uint64_t Bytes;
};

// Finds the annotated variables of the host module M, and the extern
// declarations that the plugin's markers point to (erasing the markers), and
// marks each with metadata that its clones in device modules keep.
llvm::SmallVector<DeviceGlobalInfo, 4> markDeviceGlobals(llvm::Module &M);

// Whether GV is a device global: a marked host variable (or its clone), or
// the module variable lowerDeviceGlobals made of it.
bool isDeviceGlobal(const llvm::GlobalValue &GV);

// Replaces the clones of marked host variables in the device module Dev with
// their module variables.
void lowerDeviceGlobals(llvm::Module &Dev);

} // namespace mstage

#endif
