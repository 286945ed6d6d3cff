//===- HostStaging.h - Downloads through page-locked chunks -----*- C++ -*-===//
//
// A download into a fresh std::vector (device_vector::download) used to zero
// the vector and then copy into its pageable memory, which the driver stages
// through its own page-locked buffers and copies again on the CPU. Through
// the runtime's two page-locked chunks of 4 MiB, the vector is filled by the
// one copy out of each chunk while the next chunk's DMA runs, and is never
// zeroed: 1.31 against 1.99 ms for 8 MiB, 0.17 against 0.35 ms for 1 MiB on
// the H200 (tools/gpu/host-pages/download-probe.cu; docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_HOSTSTAGING_H
#define MSTAGE_RUNTIME_HOSTSTAGING_H

#include "mstage/abi.h"

#include <cstddef>

namespace mstage::rt {

class Stream;

// Downloads Bytes from Src, in order with S's work, handing the chunks to
// Sink; returns 0 or a failWith() status. Staged is false, and nothing is
// done, where no staging serves (see mstage_rt_download_staged).
int downloadStaged(Stream &S, const void *Src, size_t Bytes,
                   size_t ElementBytes, mstage_chunk_sink Sink, void *Context,
                   bool &Staged);

} // namespace mstage::rt

#endif
