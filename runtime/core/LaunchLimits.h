//===- LaunchLimits.h - The launch shapes a GPU takes ---------------------===//
//
// Every back end holds a launch to a GPU's limits before anything is
// compiled or run, so that a program tested on the CPU back end or in
// PTX-only mode does not fail later on a GPU: on a GPU the device's own
// attributes, in PTX-only mode the limits of MSTAGE_ARCH, on the CPU sm_90's
// (Backend::limits()).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_LAUNCHLIMITS_H
#define MSTAGE_RUNTIME_CORE_LAUNCHLIMITS_H

#include "core/KernelRegistry.h"
#include "formats/KernelBlob.h"
#include "support/RuntimeFailure.h"

#include "mstage/abi.h"

#include <cstdint>
#include <string>

namespace mstage::rt {

class Backend;

struct LaunchLimits {
  uint64_t Block[3];     // x, y, z
  uint64_t Grid[3];      // x, y, z
  uint64_t BlockThreads; // block.x * block.y * block.z
  uint64_t SharedBytes;  // dynamic shared memory, with the opt-in
  std::string Whose;     // "sm_90's", "the device's"
  std::string Note;      // after the message: " (NVIDIA H200, sm_90)"
};

// The limits of architecture Arch ("sm_86", "sm_90a"); sm_90's for an
// architecture this table does not know.
LaunchLimits archLaunchLimits(const std::string &Arch);

// The limits launches on B are held to (computed once per process).
const LaunchLimits &launchLimits(const Backend &B);

// Success when C fits L; else what is over which limit, as the rest of the
// sentence "mstage: kernel 'k' ..." (withKernel names the kernel).
llvm::Error checkLaunchShape(const mstage_launch_config &C,
                             const LaunchLimits &L);

// The static shared memory a kernel may declare (shared_array), on every
// architecture: ptxas rejects more.
inline constexpr uint64_t StaticSharedLimit = 48 * 1024;

// Bytes of the kernel's shared_array globals, from its blob (mstage++
// measured them: reading the bitcode at the first launch cost 0.1-0.2 ms a
// kernel on an H200).
uint64_t staticSharedBytes(const RegisteredKernel &K);

// Success when StaticBytes of shared_array and C's dynamic shared memory
// fit L together; else what is over, as checkLaunchShape says it.
llvm::Error checkSharedMemory(const mstage_launch_config &C,
                              uint64_t StaticBytes, const LaunchLimits &L);

} // namespace mstage::rt

#endif
