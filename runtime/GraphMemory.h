//===- GraphMemory.h - Memory that graphs use lives as long as they do ----===//
//
// The rule (docs/async.md, Graphs): memory that a capture made belongs to
// the graph (on a GPU each replay allocates and frees it, as graph memory
// nodes), and must be freed within the capture; memory made before it, that the
// captured work uses or that is freed inside the capture, is freed only once
// every graph that uses it is destroyed. So no free, whenever a device_vector's
// destructor runs, takes memory that a replay reads.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_GRAPHMEMORY_H
#define MSTAGE_RUNTIME_GRAPHMEMORY_H

#include "core/Stream.h"

#include <string>
#include <vector>

namespace mstage::rt {

// At the end of a capture: the graph holds the memory Rec uses or freed
// (returned, to release with the graph). Memory the capture made and did
// not free is described in Escaped ("" when none); on a GPU it is gone with
// the graph, and its later free does nothing.
std::vector<void *> holdGraphMemory(Recording &Rec, std::string &Escaped);
// When the graph is destroyed: frees what was freed while it held it, once
// the work that may use it is done.
void releaseGraphMemory(const std::vector<void *> &Held);

} // namespace mstage::rt

#endif
