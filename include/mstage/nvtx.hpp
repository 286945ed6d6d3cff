// mstage::nvtx_range: a range of the program's own on a profiler's timeline.
#ifndef MSTAGE_NVTX_HPP
#define MSTAGE_NVTX_HPP

#include "mstage/abi.h"

#include <string>

namespace mstage {

// From construction to destruction, a range named name in NVTX domain
// "mstage", beside the runtime's own (JIT compiles, cache loads, waits):
// Nsight Systems shows it on the thread's timeline, and
// `ncu --nvtx --nvtx-include "mstage@name/"` profiles only the kernels
// launched inside it. Ranges nest on each thread. Nothing, and no cost but a
// call, without a tool or in a runtime built without NVTX.
class nvtx_range {
public:
  explicit nvtx_range(const char *name) { mstage_rt_nvtx_push(name); }
  explicit nvtx_range(const std::string &name) : nvtx_range(name.c_str()) {}
  ~nvtx_range() { mstage_rt_nvtx_pop(); }
  nvtx_range(const nvtx_range &) = delete;
  nvtx_range &operator=(const nvtx_range &) = delete;
};

} // namespace mstage

#endif
