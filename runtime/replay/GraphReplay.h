//===- GraphReplay.h - MSTAGE_GRAPHS=auto: repeating launches as graphs ---===//
//
// Finds the period of the launches (and device-vector fills and copies) on
// each GPU stream, holds the next repetitions back and enqueues them as one
// CUDA graph launch; any other launch or operation first enqueues what is
// held, in order
// (core/Stream.h, enqueueHeldWork). docs/graphs.md gives the design.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_REPLAY_GRAPHREPLAY_H
#define MSTAGE_RUNTIME_REPLAY_GRAPHREPLAY_H

#include "replay/HeldLaunch.h"

#include "llvm/Support/Error.h"

#include <atomic>

namespace mstage::rt {

class Stream;

// 1: replay is on, 0: off, -1: not decided yet.
extern std::atomic<int> ReplayState;
bool decideReplay();

// Whether launches go through launchOrHold: MSTAGE_GRAPHS=auto (or a bad
// value, which launchOrHold reports), and nothing turned it off. One load
// when decided.
inline bool replayOn() {
  int State = ReplayState.load(std::memory_order_relaxed);
  return State > 0 || (State < 0 && decideReplay());
}

// Enqueues L on S (not captured), or holds it back to replay. Candidate:
// everything L runs with is in its view (docs/graphs.md); otherwise it is
// enqueued, after what S holds (ElapsedMs: timed and waited for, as
// Backend::launch does). Held: it was held back.
llvm::Error launchOrHold(Stream &S, const LaunchView &L, bool Candidate,
                         float *ElapsedMs, bool &Held);

// Enqueues a fill (Count elements of the pattern) or a copy on one device
// (Dst and Src apart) on S, or holds it back to replay, as a launch is:
// a graph may hold them among the launches of a period.
llvm::Error fillOrHold(Stream &S, CUdeviceptr Dst, const void *Pattern,
                       size_t ElementBytes, size_t Count);
llvm::Error copyOrHold(Stream &S, CUdeviceptr Dst, CUdeviceptr Src,
                       size_t Bytes, bool &Held);

// Enqueues what is held and turns replay off for the rest of the process:
// the program takes native handles and may enqueue work mstage cannot see.
void turnReplayOff(const char *Why);

} // namespace mstage::rt

#endif
