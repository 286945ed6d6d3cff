//===- ChromeTrace.h - Spans written as a Chrome trace-event file -*- C++
//-*-===//
//
// The format that chrome://tracing and ui.perfetto.dev read: a JSON object
// whose traceEvents are complete ("X") spans with their start and length in
// microseconds, and metadata ("M") events that name the processes and
// threads. The host threads are the threads of process 1, the streams those
// of process 2, so that the two groups are shown apart.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_CHROMETRACE_H
#define MSTAGE_RUNTIME_INSPECT_CHROMETRACE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mstage::rt {

// A host thread (by its OS id) or a stream (by its mstage id).
struct TraceTrack {
  bool Stream = false;
  uint64_t Id = 0;
  std::string Name;
};

struct TraceSpan {
  bool Stream = false;
  uint64_t Track = 0;
  int64_t StartNs = 0, EndNs = 0; // since the trace began
  const char *Category = "";
  std::string Name;
  std::string Kernel, Staged; // args; empty: left out
  const char *Outcome = nullptr;
  uint64_t Bytes = 0;
};

// Writes Spans to Path whole or not at all: to a temporary file beside it
// that is renamed to Path. The spans of each track are sorted by start, an
// enclosing span before those it encloses.
llvm::Error writeChromeTrace(llvm::StringRef Path, std::vector<TraceSpan> Spans,
                             llvm::ArrayRef<TraceTrack> Tracks);

} // namespace mstage::rt

#endif
