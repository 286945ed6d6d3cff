//===- Dump.h - MSTAGE_DUMP: write what each launch compiled --------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_DUMP_H
#define MSTAGE_RUNTIME_INSPECT_DUMP_H

#include "support/Settings.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mstage::rt {

// The kernel's part of its dump files' names: KernelName, or for a name
// too long for a file name, its first 100 characters, "~" and the 16 hex
// digits of its hash.
std::string dumpBaseName(llvm::StringRef KernelName);

// Writes Text to <dir>/<dumpBaseName>-<hash>.<Extension>; a failure is
// reported once on stderr and does not stop the launch.
void dumpFile(llvm::StringRef KernelName, uint64_t Hash,
              llvm::StringRef Extension, llvm::StringRef Text);

// Writes <dir>/<dumpBaseName>-<hash>.sass: Cubin (or, when it is empty, the
// PTX assembled by ptxas for Arch) disassembled by cuobjdump. Without the
// tools (CudaTools.h), says so once on stderr.
void dumpSass(llvm::StringRef KernelName, uint64_t Hash, llvm::StringRef PTX,
              llvm::StringRef Cubin, llvm::StringRef Arch);

} // namespace mstage::rt

#endif
