//===- HeldLaunch.h - One launch as automatic graph replay records it -----===//
//
// Everything a launch on the GPU runs with, copied at the launch: its
// function (the specialization's, so its staged values), its configuration
// and its parameters' bytes. Two launches with equal records run the same
// kernel on the same data, so one may stand for the other in a graph. A
// device-vector fill or a copy on one device is recorded the same way (its
// addresses, sizes and pattern), as an operation a graph can hold too.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_REPLAY_HELDLAUNCH_H
#define MSTAGE_RUNTIME_REPLAY_HELDLAUNCH_H

#include "cuda/LaunchKind.h"
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
  // Plain or Programmatic (its code begins with the wait: LaunchKind.h),
  // which its function decides.
  LaunchKind How = LaunchKind::Plain;
  // Its specialization (the cache entry), whose code may be replaced by a
  // faster tier's: another Function for the same launch.
  const void *Specialization = nullptr;
};

struct HeldLaunch {
  enum class Kind : uint8_t { Kernel, Fill, Copy };
  Kind What = Kind::Kernel;
  // A fill: Count elements of ElementBytes at Dst, the pattern in Bytes. A
  // copy: ElementBytes bytes from Src to Dst (apart, on one device).
  CUdeviceptr Dst = 0, Src = 0;
  size_t ElementBytes = 0, Count = 0;
  CUfunction Function = nullptr;
  LaunchKind How = LaunchKind::Plain; // follows Function
  mstage_launch_config Config{};
  // The parameters, each at a multiple of 8 bytes (as a kernel's parameter
  // space aligns them), from Starts[I] to Ends[I].
  llvm::SmallVector<char, 64> Bytes;
  llvm::SmallVector<uint32_t, 8> Starts, Ends;
  uint64_t Hash = 0; // of all the above
  const void *Kernel = nullptr;
  const std::string *Name = nullptr;
  const void *Specialization = nullptr; // not hashed: Function decides

  // Copies L into this record (reusing its storage).
  void assign(const LaunchView &L);
  void assignFill(CUdeviceptr To, const void *Pattern, size_t ElementBytes,
                  size_t Count);
  void assignCopy(CUdeviceptr To, CUdeviceptr From, size_t Bytes);
  // Whether L would run as this record does.
  bool matches(const LaunchView &L) const;
  // Whether L is this launch with its specialization's newer code: the same
  // kernel, specialization, configuration and arguments, another function.
  bool newCodeIn(const LaunchView &L) const;
  // Runs Function (How) from now on: the specialization's newer code.
  void setCode(CUfunction NewFunction, LaunchKind NewHow);
  bool operator==(const HeldLaunch &O) const;
  // How L (or the operation O) differs from this record, for the trace:
  // "another kernel (k)", "another launch configuration of k", "other staged
  // values of k", "other arguments of k", "another operation (filling
  // memory)", "another fill", "another copy on the device".
  std::string difference(const LaunchView &L) const;
  std::string difference(const HeldLaunch &O) const;
  // "filling memory", "copying on the device"; a kernel's name.
  const std::string &name() const;
  // Pointers to the parameters, for cuLaunchKernel.
  void params(llvm::SmallVectorImpl<void *> &Out) const;
};

} // namespace mstage::rt

#endif
