//===- AssembleCode.h - PTX to cubin: ptxas or the driver's JIT -----------===//
//
// The driver's PTX JIT compiles one module at a time in a process (H200,
// 16 threads loading PTX at once: each waited for all before it, 16 to 283
// ms), and the program's own launches wait for it too: a background
// compile's load of heat's PTX held a launch of the time loop for 40 ms
// (H100, MSTAGE_TRACE=chrome). So only a launch that waits for its code
// anyway may load PTX through the driver: it holds the claim. A compile
// that does not (a background compile, or one while another holds it) has
// ptxas make a cubin (ptxas runs as processes, side by side), whose load
// takes under a millisecond.
//
// Large PTX never takes the claim: its driver JIT would hold the driver for
// as long as ptxas runs (the stencil's kernels: 0.3-0.8 s of ptxas each)
// while ptxas makes the same code again for the cache, so it is assembled
// once, by ptxas, and its cubin loaded. ptxas's fixed cost as a process
// (about 6 ms) is what the driver's JIT saves a small kernel's first launch.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_ASSEMBLECODE_H
#define MSTAGE_RUNTIME_LAUNCH_ASSEMBLECODE_H

#include "cache/DiskCache.h"
#include "launch/CodeRequest.h"

#include "llvm/Support/Error.h"

#include <atomic>
#include <cstddef>

namespace mstage::rt {

// Held from the compile until the load.
class DriverJitClaim {
public:
  // PTX of LargePtxBytes or more is assembled by ptxas.
  static constexpr size_t LargePtxBytes = 64 * 1024;
  DriverJitClaim(bool OnGpu, size_t PtxBytes);
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
// mode. PTX that ptxas rejects is R's kernel's error. A background compile
// that waits for ptxas when the process exits is handed over: ptxas leaves
// its output for Key's entry (CompilePool.h), unless code is dumped.
llvm::Error assembleCode(const CodeRequest &R, const CacheKey &Key,
                         const DriverJitClaim &DriverJit, CachedCode &Code);

} // namespace mstage::rt

#endif
