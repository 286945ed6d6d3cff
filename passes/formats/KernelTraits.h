//===- KernelTraits.h - What a kernel's device code asks of its launch ----===//
//
// Facts the back ends need of a kernel before its first launch: whether its
// threads wait for each other, whether its blocks do (a grid barrier, which
// needs a cooperative launch), whether it keeps state on the device, and its
// static shared memory. The
// plugin finds them in the bitcode it embeds (transforms/ScanKernelTraits.h)
// and the kernel blob carries them as flags, so that no launch parses
// bitcode (a lazy read cost about 0.4 ms a kernel on an H200; the static
// shared memory's read, 0.1-0.2 ms a kernel, was the rest of heat's first
// launches).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_KERNELTRAITS_H
#define MSTAGE_PASSES_FORMATS_KERNELTRAITS_H

#include <cstdint>

namespace mstage {

struct KernelTraits {
  // A barrier, a warp vote, shuffle, match, reduction, sync or tensor-core
  // operation, or activemask: the CPU back end runs the block's threads as
  // fibers. True unless known otherwise: fibers are always right.
  bool Synchronizes = true;
  // this_grid().sync(): every block must be resident at once, which the GPU
  // guarantees only to a cooperative launch (cuLaunchCooperativeKernel).
  bool SyncsGrid = false;
  // A device global or the device heap (malloc, new): state on the device
  // that a run on the CPU back end does not share (MSTAGE_CHECK=cpu).
  bool UsesDeviceState = false;
  // The bytes of its shared_array globals, which the launch checks against
  // the device's limit with the launch's dynamic shared memory.
  uint64_t StaticSharedBytes = 0;
};

} // namespace mstage

#endif
