//===- AssembleCode.h - PTX to cubin: ptxas or the driver's JIT -----------===//
//
// The driver's PTX JIT compiles one module at a time in a process (H200,
// 16 threads loading PTX at once: each waited for all before it, 16 to 283
// ms). A compile that holds the claim loads its PTX through the driver;
// one that does not, while another does, has ptxas make a cubin (ptxas
// runs as processes, side by side), whose load takes under a millisecond.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_ASSEMBLECODE_H
#define MSTAGE_RUNTIME_LAUNCH_ASSEMBLECODE_H

#include "cache/DiskCache.h"
#include "launch/CodeRequest.h"

#include "llvm/Support/Error.h"

#include <atomic>

namespace mstage::rt {

// Held from the compile until the load.
class DriverJitClaim {
public:
  explicit DriverJitClaim(bool OnGpu);
  ~DriverJitClaim() {
    if (Counted)
      InUse.fetch_sub(1, std::memory_order_acq_rel);
  }
  DriverJitClaim(const DriverJitClaim &) = delete;
  DriverJitClaim &operator=(const DriverJitClaim &) = delete;
  bool held() const { return Held; }

private:
  static inline std::atomic<unsigned> InUse{0};
  bool Held = true, Counted = false;
};

// Sets Code.Cubin to ptxas's cubin of Code.PTX where one is made now: on
// the GPU while another compile holds the driver's JIT, and in PTX-only
// mode. PTX that ptxas rejects is R's kernel's error.
llvm::Error assembleCode(const CodeRequest &R, const DriverJitClaim &DriverJit,
                         CachedCode &Code);

} // namespace mstage::rt

#endif
