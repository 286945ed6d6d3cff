//===- StreamCheck.h - MSTAGE_CHECK=streams: cross-stream hazards -*- C++
//-*-===//
//
// Finds uses of memory that no event or synchronization orders after a
// conflicting use on another stream, as a GPU would run them, whatever the
// back end: on the CPU back end and in PTX-only mode, where everything runs
// in order, the race is reported all the same.
//
// Each stream has a vector clock: its own count of operations, and for each
// other stream the last operation it is known to run after. An event takes
// its stream's clock when recorded; a wait merges the event's clock into the
// stream's; a synchronization merges the stream's (or every stream's) into
// the host's, which every later operation merges in when it is enqueued.
// The host's clock is one for the process: what one thread waited for, the
// others are taken to know (so races between host threads are not found).
// Each allocation keeps its recent uses (stream, clock, range, read or
// write, and the operation's words); a new use conflicts with one on another
// stream that is not ordered before it when either writes and their ranges
// overlap. The host's own reads and writes of managed and pinned memory
// (the containers' element access) conflict with the uses on streams that
// the host has not waited for. While a stream is captured its uses go into
// the graph, and each replay uses them on the replay's stream.
//
// Each hazard is reported once on stderr, naming both operations (with the
// file:line that the headers pass through mstage_rt_check_site); the
// program runs on and its exit status is its own.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_STREAMCHECK_H
#define MSTAGE_RUNTIME_CORE_STREAMCHECK_H

#include "mstage/abi.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>

namespace mstage::rt {

class Stream;

namespace streamcheck {

// Reads MSTAGE_CHECK; the result stays in mstage_rt_streams_checked.
bool readSetting();
// Whether the checker is on: one load and a predictable branch when off.
inline bool on() {
  int State = __atomic_load_n(&mstage_rt_streams_checked, __ATOMIC_RELAXED);
  return State != 0 && (State > 0 || readSetting());
}

enum class MemoryKind { Device, Pinned, Managed };
// A new allocation (its earlier uses, of memory freed before, are gone).
void allocated(const void *P, size_t Bytes, MemoryKind Kind);
void freed(const void *P);

// One operation's use of memory that the runtime may not have allocated
// (such memory is not tracked).
struct Use {
  const void *P;
  size_t Bytes;
  bool Write;
};
// An operation named What ("upload") on S, unless the calling thread's
// site names it.
void operation(Stream &S, const char *What, llvm::ArrayRef<Use> Uses);
// A launch of Kernel on S, with the uses the headers gave
// (mstage_rt_check_use) and the tracked memory its lambda's captured views
// point into (StreamCheckSlots.h).
void launched(Stream &S, const void *Kernel, void *const *Params,
              const uint32_t *ParamSizes, uint32_t NumParams);

// The host reads or writes the bytes at P now, from File:Line (What: the
// container's call): a conflicting use on a stream that no synchronization
// has ordered before the host is reported, or with MSTAGE_STREAM_ORDER=auto
// waited for.
void hostUsed(const void *P, size_t Bytes, bool Write, const char *File,
              unsigned Line, const char *What);

// The calling thread's site (mstage_rt_check_site) and pending uses.
bool enterSite(const char *File, unsigned Line, const char *What,
               const void *Kernel);
void leaveSite();
void addPendingUse(const void *P, size_t Bytes, bool Write);

// What orders streams and the host.
void recorded(const mstage_event *E, Stream &S);
void waited(Stream &S, const mstage_event *E);
void orderedAfter(Stream &S, Stream &Other);
void streamDone(Stream &S); // synchronized, or destroyed
void eventDone(const mstage_event *E);
void allDone();
void eventDestroyed(const mstage_event *E);

// Graphs: the uses captured on Root's capture become G's, replayed on S.
void captureEnded(Stream &Root, const mstage_graph *G);
void graphLaunched(const mstage_graph *G, Stream &S);
void graphDestroyed(const mstage_graph *G);

} // namespace streamcheck
} // namespace mstage::rt

#endif
