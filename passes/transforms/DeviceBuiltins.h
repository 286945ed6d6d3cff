//===- DeviceBuiltins.h - Map mstage builtins onto NVVM intrinsics --------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEBUILTINS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEBUILTINS_H

namespace llvm {
class Module;
}

namespace mstage {

// The symbol of the launch's dynamic shared memory in device modules.
inline constexpr const char *DynamicSharedName = "__mstage_dynamic_shared";
// mstage::device_arch(), left for the JIT (DeviceCodegen.cpp) to fold.
inline constexpr const char *DeviceArchBuiltin = "__mstage_device_arch";

// The grid barrier's word (this_grid().sync()) in device modules: a kernel
// whose module has it is launched cooperatively (formats/KernelTraits.h).
inline constexpr const char *GridBarrierName = "__mstage_grid_barrier_word";

// The messages of the failed checks __mstage_check_bounds (file, line,
// function, index, what, size) and __mstage_check_shared (file, line,
// function, needed, available); the host builtins print the same.
inline constexpr const char *BoundsCheckFormat =
    "%s:%u: %s: mstage: index %lld is out of bounds for %s of size %llu\n";
inline constexpr const char *SharedCheckFormat =
    "%s:%u: %s: mstage: the kernel needs %llu bytes of dynamic shared memory, "
    "the launch gave %llu (kernel(f, grid, block, shared_bytes))\n";
// __mstage_check_barrier (file, line, function, arrived, threads); the host
// cannot tell and never prints it.
inline constexpr const char *BarrierCheckFormat =
    "%s:%u: %s: mstage: divergent barrier: %u of the block's %u threads "
    "reached it (the others returned or skipped it)\n";

// Replaces calls to the __mstage_* builtins of include/mstage/builtins.h with
// NVVM special-register reads, barriers and the dynamic shared memory symbol
// (address space 3). A check becomes a branch to printf and __assert_fail, so
// it must run before lowerAssert and lowerPrintf.
void lowerDeviceBuiltins(llvm::Module &M);

} // namespace mstage

#endif
