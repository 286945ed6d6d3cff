//===- KernelEntries.cpp - The kernel entries of a host module ------------===//
#include "transforms/KernelEntries.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-kernel-entries"

STATISTIC(NumKernelEntries, "Kernel entries found");
STATISTIC(NumUnnamedEntries, "Kernel entries without the plugin's names");

namespace mstage {

SmallVector<KernelEntry, 4> findKernelEntries(Module &M) {
  SmallVector<KernelEntry, 4> Entries;
  MapVector<Function *, KernelSourceInfo> Found;
  DenseSet<Function *> Tagged;
  for (auto &[F, Strings] : readAnnotations(M))
    for (StringRef Str : Strings) {
      if (Str == KernelAnnotation) {
        Tagged.insert(F);
        Found.insert({F, {}});
      } else {
        KernelSourceInfo Info;
        if (decodeKernelInfo(Str, Info))
          Found[F] = Info;
      }
    }
  for (auto &[F, Info] : Found) {
    if (!Tagged.count(F) || F->isDeclaration())
      continue;
    if (Info.Name.empty()) {
      Info.Name = "mstage_kernel_" + utohexstr(xxh3_64bits(F->getName()));
      Info.PrettyName = demangle(F->getName());
      ++NumUnnamedEntries;
    }
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Info.Name << " is "
                      << F->getName() << "\n");
    Entries.push_back({F, Info});
    ++NumKernelEntries;
  }
  return Entries;
}

StringRef kernelFile(const KernelSourceInfo &Info) {
  return StringRef(Info.Location).rsplit(':').first.rsplit(':').first;
}

} // namespace mstage
