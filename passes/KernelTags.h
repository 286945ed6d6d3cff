//===- KernelTags.h - How the front end marks kernel entries -------------===//
//
// The header marks every mstage::detail::kernel_entry instantiation with
// annotate("mstage.kernel"); the Clang plugin adds a second annotation that
// carries the kernel's names and source location to the extraction pass.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_KERNELTAGS_H
#define MSTAGE_PASSES_KERNELTAGS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mstage {

inline constexpr const char *KernelAnnotation = "mstage.kernel";
inline constexpr const char *KernelInfoPrefix = "mstage.kernel.info=";

struct KernelSourceInfo {
  std::string Name;       // device symbol, e.g. "mstage_main_L9"
  std::string PrettyName; // e.g. "main::lambda@saxpy.cpp:9:18"
  std::string Location;   // "saxpy.cpp:9:18"
};

std::string encodeKernelInfo(const KernelSourceInfo &Info);
bool decodeKernelInfo(llvm::StringRef Annotation, KernelSourceInfo &Info);

} // namespace mstage

#endif
