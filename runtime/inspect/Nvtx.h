//===- Nvtx.h - NVTX ranges of what the runtime does ------------*- C++ -*-===//
//
// With NVTX's headers at build time (MSTAGE_HAVE_NVTX), the runtime pushes
// ranges in NVTX domain "mstage" around what a profiler's timeline should
// show: each JIT compile or cache load of a specialization, and each wait
// (mstage::jit_wait(), synchronize()). NVTX v3 is header-only: the first
// range asks NVTX to initialize, which loads a tool's injection library only
// when NVTX_INJECTION64_PATH names one (Nsight Systems and Nsight Compute set
// it); without a tool the domain is null, and a range is the test of a flag
// read once, its message never built. Without the headers, nothing.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_NVTX_H
#define MSTAGE_RUNTIME_INSPECT_NVTX_H

#include "formats/KernelBlob.h"

#include "llvm/ADT/Twine.h"

#include <string>
#include <string_view>

namespace mstage::rt {

#ifdef MSTAGE_HAVE_NVTX
// Whether a tool receives mstage's ranges. Read once.
bool nvtxActive();
// A range of the calling thread in domain "mstage"; ranges nest per thread.
void nvtxPush(const llvm::Twine &Message);
void nvtxPop();
#else
constexpr bool nvtxActive() { return false; }
inline void nvtxPush(const llvm::Twine &) {}
inline void nvtxPop() {}
#endif

// "<kernel> key <specialization>": how a range names the specialization
// whose memory-cache key is Key (as MSTAGE_STATS does, specializationId).
std::string nvtxKeyText(const mstage::KernelBlob &Kernel, std::string_view Key);

// A range from construction to destruction. Message is rendered only when a
// tool listens.
class NvtxRange {
public:
  explicit NvtxRange(const llvm::Twine &Message) {
    if (nvtxActive()) {
      nvtxPush(Message);
      Pushed = true;
    }
  }
  ~NvtxRange() {
    if (Pushed)
      nvtxPop();
  }
  NvtxRange(const NvtxRange &) = delete;
  NvtxRange &operator=(const NvtxRange &) = delete;

private:
  bool Pushed = false;
};

} // namespace mstage::rt

#endif
