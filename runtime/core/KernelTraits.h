//===- KernelTraits.h - What a kernel's device code asks of its launch ----===//
//
// Facts that the back ends read from a kernel's embedded bitcode (where the
// builtins are already NVVM intrinsics, except those that wait for the
// architecture), once per kernel: whether its threads wait for each other,
// and whether its blocks do (a grid barrier, which needs a cooperative
// launch).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_KERNELTRAITS_H
#define MSTAGE_RUNTIME_CORE_KERNELTRAITS_H

namespace mstage::rt {

struct RegisteredKernel;

struct KernelTraits {
  // A barrier, a warp vote, shuffle, match, reduction, sync or tensor-core
  // operation, or activemask: the CPU back end runs the block's threads as
  // fibers.
  bool Synchronizes = true;
  // this_grid().sync(): every block must be resident at once, which the GPU
  // guarantees only to a cooperative launch (cuLaunchCooperativeKernel).
  bool SyncsGrid = false;
  // A device global or the device heap (malloc, new): state on the device
  // that a run on the CPU back end does not share (MSTAGE_CHECK=cpu).
  bool UsesDeviceState = false;
};

// K's traits, read on the first call for K; later calls take no lock on the
// thread that made the last one.
const KernelTraits &kernelTraits(const RegisteredKernel &K);

} // namespace mstage::rt

#endif
