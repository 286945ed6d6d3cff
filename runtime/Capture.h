//===- Capture.h - Ending a stream's capture into a graph -------*- C++ -*-===//
//
// mstage_rt_capture_end's work (StreamApi.cpp), for the graph builder too,
// which ends a capture into one node of its graph, uninstantiated.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CAPTURE_H
#define MSTAGE_RUNTIME_CAPTURE_H

#include "core/Stream.h"

namespace mstage::rt {

// Ends S's capture into *Out (null Out: discards it), holding the memory
// its work uses (GraphMemory.h); Instantiate: replayable on a GPU, else
// only its CUDA graph is made. Returns 0 or failWith()'s status.
int endCapture(Stream &S, mstage_graph **Out, bool Instantiate);

} // namespace mstage::rt

#endif
