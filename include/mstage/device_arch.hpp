// Host and device code paths without macros: CUDA's `#ifdef __CUDA_ARCH__`
// and `#if __CUDA_ARCH__ >= 800`, as values that the compiler folds:
//
//   if (mstage::on_device())               // true in the GPU's code
//     v = mstage::warp::reduce_sum(v);
//   if (mstage::device_arch() >= 800)      // 900 on an H100's code
//     ...
//
// mstage++ compiles kernel code once, as host C++, for the GPU and the CPU
// back end alike, so `__CUDA_ARCH__` is never defined (the plugin warns where
// kernel code tests it). on_device() is true in the device code of a kernel,
// folded when the kernel is extracted; device_arch() is the architecture the
// code is compiled for (__CUDA_ARCH__'s 700, 800, 900, ...), folded by the
// JIT, so each branch not taken is gone from the PTX: the GPU's own in a
// specialization, the ahead-of-time target in the generic code that runs
// while it compiles (800 in the sm_80 image on an sm_90 GPU), as
// __CUDA_ARCH__ is for code nvcc compiled for sm_80. In host code and on
// the CPU back end they are false and 0. Both branches are compiled, so both
// must be valid kernel code (mstage's checks apply to both).
#ifndef MSTAGE_DEVICE_ARCH_HPP
#define MSTAGE_DEVICE_ARCH_HPP

#include "mstage/builtins.h"

namespace mstage {

inline bool on_device() { return __mstage_on_device() != 0; }

inline unsigned device_arch() { return __mstage_device_arch(); }

} // namespace mstage

#endif
