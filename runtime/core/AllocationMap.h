//===- AllocationMap.h - The memory the runtime handed out -----*- C++ -*-===//
//
// Every allocation made through mstage_rt_*alloc*, by start address, so that
// a launch can tell which allocation each of its pointers is in, and which
// device's memory it is, without asking the driver (LaunchFacts.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_ALLOCATIONMAP_H
#define MSTAGE_RUNTIME_CORE_ALLOCATIONMAP_H

#include <cstddef>
#include <cstdint>

namespace mstage::rt {

// Device: the device whose memory it is, or NoDevice for host memory
// (pinned, managed, or device memory off the GPU).
constexpr int NoDevice = -1;
void noteAllocation(const void *Start, size_t Bytes, int Device = NoDevice);
void forgetAllocation(const void *Start);

// Changes whenever an allocation is noted or forgotten: what was found in the
// map holds while it stays the same.
uint64_t allocationGeneration();

// The start of the allocation that holds P (or ends at P: one past the end
// is in it), or 0 when the runtime did not allocate it.
uintptr_t allocationStart(uintptr_t P);
// The device whose memory P is in, or NoDevice (host memory, or memory the
// runtime did not allocate).
int allocationDevice(uintptr_t P);

} // namespace mstage::rt

#endif
