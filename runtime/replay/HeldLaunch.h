//===- HeldLaunch.h - One launch as automatic graph replay records it -----===//
//
// Everything a launch on the GPU runs with, copied at the launch: its
// function (the specialization's, so its staged values), its configuration
// and its parameters' bytes. Two launches with equal records run the same
// kernel on the same data, so one may stand for the other in a graph.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_REPLAY_HELDLAUNCH_H
#define MSTAGE_RUNTIME_REPLAY_HELDLAUNCH_H

#include "mstage/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cuda.h>

#include <cstdint>
#include <string>

namespace mstage::rt {

// A launch as it reaches the driver, not copied.
struct LaunchView {
  CUfunction Function = nullptr;
  const mstage_launch_config *Config = nullptr;
  void *const *Params = nullptr;
  llvm::ArrayRef<uint32_t> Sizes;    // one per parameter
  const void *Kernel = nullptr;      // the kernel's host entry
  const std::string *Name = nullptr; // its name, kept for the process
};

struct HeldLaunch {
  CUfunction Function = nullptr;
  mstage_launch_config Config{};
  // The parameters, each at a multiple of 8 bytes (as a kernel's parameter
  // space aligns them), from Starts[I] to Ends[I].
  llvm::SmallVector<char, 64> Bytes;
  llvm::SmallVector<uint32_t, 8> Starts, Ends;
  uint64_t Hash = 0; // of all the above
  const void *Kernel = nullptr;
  const std::string *Name = nullptr;

  // Copies L into this record (reusing its storage).
  void assign(const LaunchView &L);
  // Whether L would run as this record does.
  bool matches(const LaunchView &L) const;
  bool operator==(const HeldLaunch &O) const;
  // How L differs from this record, for the trace: "another kernel (k)",
  // "another launch configuration of k", "other staged values of k",
  // "other arguments of k".
  std::string difference(const LaunchView &L) const;
  // Pointers to the parameters, for cuLaunchKernel.
  void params(llvm::SmallVectorImpl<void *> &Out) const;
};

} // namespace mstage::rt

#endif
