//===- DeviceLibrary.h - Other units' device code that kernels call -------===//
//
// Each unit compiled by mstage++ registers its device link data
// (passes/transforms/DeviceExports.h): the functions it exports and those its
// kernels import. A kernel's imports are resolved when it is first looked up,
// on every back end, so that a missing or mismatched definition is an error
// naming the function before anything runs; the JIT links the exports into
// the kernel's module before optimization, so that they are inlined and
// specialized with it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_JIT_DEVICELIBRARY_H
#define MSTAGE_RUNTIME_JIT_DEVICELIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace mstage::rt {

// Registers the device link blob at Data (of Size bytes) of the unit Owner;
// an unreadable blob is an error.
llvm::Error addDeviceLink(const void *Owner, const uint8_t *Data, size_t Size);
// The unit Owner is unloaded: its exports are gone.
void removeDeviceLink(const void *Owner);

// Resolves the imports of the kernel KernelName of unit Owner, and of the
// exports they reach, against the registered exports. Returns a hash of the
// code they link (0 when none), or an error naming the kernel (PrettyName)
// and the function: no unit defines it, two define it differently, or it is
// defined with another type than the kernel's file declares.
llvm::Expected<uint64_t> resolveImports(const void *Owner,
                                        llvm::StringRef KernelName,
                                        llvm::StringRef PrettyName);

// Links into M the registered exports that define what M calls without
// defining, and what they call in turn (LinkOnlyNeeded: only those).
llvm::Error linkDeviceExports(llvm::Module &M);

} // namespace mstage::rt

#endif
