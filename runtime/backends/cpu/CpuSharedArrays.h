//===- CpuSharedArrays.h - shared_array storage on the CPU back end -------===//
//
// A block runs on one OS thread, its threads one after another (a loop or
// fibers), and an OS thread runs one block at a time: storage of the calling
// OS thread is the running block's, seen by all its threads and by no other
// block. Each shared_array declaration gets its own array there, kept for
// the thread's later blocks (shared memory starts uninitialized anyway).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUSHAREDARRAYS_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUSHAREDARRAYS_H

#include <cstdint>

namespace mstage::rt {

// The array of the declaration at (File, Line, Column, Site) of Bytes bytes,
// aligned to Align (a power of 2), for the block the calling OS thread runs;
// null when it cannot be allocated. File is the declaration's string literal,
// compared by address.
void *cpuSharedArray(uint64_t Bytes, unsigned Align, const char *File,
                     unsigned Line, unsigned Column, unsigned Site);

} // namespace mstage::rt

#endif
