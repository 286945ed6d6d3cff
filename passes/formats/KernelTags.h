//===- KernelTags.h - How the front end marks kernel entries -------------===//
//
// The header marks every mstage::detail::kernel_entry instantiation with
// annotate("mstage.kernel"); the Clang plugin adds a second annotation that
// carries the kernel's names and source location to the extraction pass.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_KERNELTAGS_H
#define MSTAGE_PASSES_FORMATS_KERNELTAGS_H

#include "formats/KernelBlob.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class GlobalValue;
class Module;
} // namespace llvm

namespace mstage {

// The annotate("...") strings of every annotated function or variable in M.
llvm::MapVector<llvm::GlobalValue *, llvm::SmallVector<llvm::StringRef, 2>>
readGlobalAnnotations(llvm::Module &M);

// The annotate("...") strings of every annotated function in M.
llvm::MapVector<llvm::Function *, llvm::SmallVector<llvm::StringRef, 2>>
readAnnotations(llvm::Module &M);

inline constexpr const char *KernelAnnotation = "mstage.kernel";
inline constexpr const char *KernelInfoPrefix = "mstage.kernel.info=";

struct KernelSourceInfo {
  // The device symbol, e.g. "_ZN4main9kernel_L9E" (KernelSymbol.h).
  std::string Name;
  std::string PrettyName; // e.g. "main::kernel_L9@saxpy.cpp:9:18"
  std::string Location;   // "saxpy.cpp:9:18"
};

inline constexpr const char *StageAnnotation = "mstage.stage";
inline constexpr const char *StageInfoPrefix = "mstage.stage.info=";

// The staged type of one mstage::detail::stage_eval instantiation.
struct StageTypeInfo {
  std::string TypeName;
  StageKind Kind = StageKind::Bytes;
  uint32_t Size = 0, Align = 1;
};

std::string encodeStageInfo(const StageTypeInfo &Info);
bool decodeStageInfo(llvm::StringRef Annotation, StageTypeInfo &Info);

std::string encodeKernelInfo(const KernelSourceInfo &Info);
bool decodeKernelInfo(llvm::StringRef Annotation, KernelSourceInfo &Info);

} // namespace mstage

#endif
