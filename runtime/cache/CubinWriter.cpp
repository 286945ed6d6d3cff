//===- CubinWriter.cpp - ptxas cubins for the disk cache, off the launch --===//
#include "cache/CubinWriter.h"
#include "cache/DiskCache.h"
#include "cuda/CudaTools.h"
#include "inspect/TraceEvents.h"
#include "support/RuntimeFailure.h"
#include "support/Warning.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

std::atomic<bool> PtxasFailed{false};

// Reports a ptxas failure once; ptxas is not used again.
void givingUpOnPtxas(StringRef Kernel, Error E) {
  std::string Why = failureMessage(std::move(E));
  static std::once_flag Warned;
  std::call_once(Warned, [&] {
    warn(Kernel, Why);
    warn("kernels are loaded as PTX from now on (set MSTAGE_PTXAS to another "
         "ptxas, or to off)");
  });
  PtxasFailed = true;
}

// ptxas's temporary files could not be written (a full disk): the
// directory's failure, not ptxas's, which stays on. One in the cache
// directory turns the disk cache off, so that later files go to the
// system's temporary directory; the kernel is loaded as PTX.
void tempFilesFailed(StringRef Kernel, const TempFilesFailed &F) {
  if (!F.Dir.empty())
    return cacheWriteFailed(F.What, F.EC);
  static std::once_flag Warned;
  std::call_once(Warned, [&] {
    warn(Kernel,
         F.What + ": " + F.EC.message() + "; the kernel is loaded as PTX");
  });
}

// Reports why ptxas gave no cubin: its temporary files' failure, or its own.
void noCubin(StringRef Kernel, Error E) {
  handleAllErrors(
      std::move(E),
      [&](const TempFilesFailed &F) { tempFilesFailed(Kernel, F); },
      [&](std::unique_ptr<ErrorInfoBase> Other) {
        givingUpOnPtxas(Kernel, Error(std::move(Other)));
      });
}

struct PendingCubin {
  CacheKey Key;
  std::string Kernel, PTX;
  std::unique_ptr<PtxasRun> Run;
};

// The ptxas processes started by this process. Made on first use, after
// the settings it reads, so that it is destroyed (and waits) before them.
class Pending {
public:
  Pending() : Owner(getpid()) {
    (void)ptxasPath();
    (void)cacheSettings();
  }
  ~Pending() {
    if (getpid() == Owner)
      collect(/*Block=*/true);
  }

  void add(PendingCubin P) {
    std::lock_guard<std::mutex> L(Lock);
    Runs.push_back(std::move(P));
  }

  // Writes the entries whose ptxas has finished (with Block, all of them).
  void collect(bool Block) {
    std::lock_guard<std::mutex> L(Lock);
    std::vector<PendingCubin> Left;
    for (PendingCubin &P : Runs) {
      auto Done = finishPtxas(*P.Run, Block);
      if (!Done) {
        Left.push_back(std::move(P));
        continue;
      }
      if (!*Done) {
        Error E = handleErrors(Done->takeError(), [&](const PtxRejected &R) {
          // The driver took PTX that ptxas refuses: no entry may serve it.
          warn(P.Kernel, R.Command +
                             " rejects the PTX that the driver loaded "
                             "(its cache entry is removed): " +
                             R.Log);
          removeFromDiskCache(P.Key);
        });
        if (E)
          noCubin(P.Kernel, std::move(E)); // the PTX entry stays
        continue;
      }
      CachedCode Code;
      Code.PTX = std::move(P.PTX);
      Code.Cubin = std::move(**Done);
      storeInDiskCache(P.Key, Code);
    }
    Runs = std::move(Left);
  }

private:
  const pid_t Owner;
  std::mutex Lock;
  std::vector<PendingCubin> Runs;
};

Pending &pending() {
  static Pending P;
  return P;
}

} // namespace

bool ptxasUsable() {
  return !ptxasPath().empty() && !PtxasFailed.load(std::memory_order_relaxed);
}

Expected<std::string> assembleWithPtxas(StringRef Kernel, StringRef PTX,
                                        StringRef Arch, std::string *Report,
                                        std::optional<PtxasKeep> Keep,
                                        function_ref<void(bool)> OnWait,
                                        int OptLevel) {
  if (!ptxasUsable())
    return "";
  HostSpan Span(SpanKind::Ptxas);
  auto Cubin = assembleCubin(PTX, Arch, cacheTemporaryDir(), Report,
                             std::move(Keep), OnWait, OptLevel);
  if (Cubin)
    return std::move(*Cubin);
  Error E = Cubin.takeError();
  if (E.isA<PtxRejected>())
    return std::move(E);
  noCubin(Kernel, std::move(E));
  return "";
}

void storeWithCubinLater(const CacheKey &Key, std::string Kernel,
                         std::string PTX, std::string Arch) {
  CachedCode Code;
  Code.PTX = PTX;
  storeInDiskCache(Key, Code);
  Pending &P = pending();
  P.collect(/*Block=*/false);
  if (!ptxasUsable())
    return;
  auto Run = startPtxas(PTX, Arch, cacheTemporaryDir());
  if (!Run)
    return noCubin(Kernel, Run.takeError());
  P.add({Key, std::move(Kernel), std::move(PTX), std::move(*Run)});
}

void initCubinWriters() { (void)pending(); }

void waitForCubinWriters() { pending().collect(/*Block=*/true); }

} // namespace mstage::rt
