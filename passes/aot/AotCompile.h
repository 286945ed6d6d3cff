//===- AotCompile.h - Compile a unit's generic kernels ahead of time ------===//
//
// The extraction pass starts the compile of the unit's generic kernels
// (GenericKernel.h) as soon as their blobs exist, on a background thread
// (LLVM's optimization and NVPTX code generation once, for the lowest
// target, each kernel on a thread of a pool, their PTX joined into one
// module; then a ptxas per target at once), so that it overlaps clang's
// host optimization;
// AotEmbedPass, at the end of the optimization pipeline, waits for it and
// embeds the images (AotImage.h), or, given an object path, lets the host
// code generation run while it finishes and writeDeferredAotObject() puts
// the images into that object (AotObject.h). A failure never
// fails the user's compile: it is one warning line, and the object gets no
// images (the runtime then waits for the JIT).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_AOT_AOTCOMPILE_H
#define MSTAGE_PASSES_AOT_AOTCOMPILE_H

#include "formats/PointerSlots.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mstage {

// The module record that the extraction pass emits (mstage_module_record).
inline constexpr const char *ModuleRecordName = "__mstage_module";

struct AotKernel {
  std::string Name;       // the kernel's symbol
  std::string PrettyName; // for messages
  std::string Bitcode;    // its device module
  std::vector<uint32_t> SiteSizes;
  std::vector<PointerSlot> PointerSlots; // the blob's
  bool DebugAtO0 = false;                // the blob's: compiled unoptimized
};

// Starts compiling Kernels, in their record order, for Archs (the plugin's
// -mstage-arch; nothing when there are none), each kernel's LLVM work on one
// of Threads threads (0: as many as the machine has cores).
void startAotCompile(llvm::Module &M, std::vector<AotKernel> Kernels,
                     std::vector<std::string> Archs, unsigned Threads = 0);

// Waits for M's compile, if one was started, and embeds its images; with
// ObjectPath (mstage++'s aot-object=PATH), only points M's record at the
// table that writeDeferredAotObject() will write there.
struct AotEmbedPass : llvm::PassInfoMixin<AotEmbedPass> {
  std::string ObjectPath;
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// After the host object is written: waits for the compile that AotEmbedPass
// deferred, if any, and writes its object.
llvm::Error writeDeferredAotObject();

} // namespace mstage

#endif
