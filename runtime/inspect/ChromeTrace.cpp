//===- ChromeTrace.cpp - Spans written as a Chrome trace-event file -------===//
#include "inspect/ChromeTrace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <tuple>

using namespace llvm;

namespace mstage::rt {

static int64_t pidOf(bool Stream) { return Stream ? 2 : 1; }

// Microseconds, as the format counts, from nanoseconds.
static double micros(int64_t Ns) { return double(Ns) / 1000.0; }

static void writeMetadata(json::OStream &J, const char *Name, int64_t Pid,
                          uint64_t Tid, const std::string &Value,
                          int64_t SortIndex) {
  J.object([&] {
    J.attribute("ph", "M");
    J.attribute("name", Name);
    J.attribute("pid", Pid);
    J.attribute("tid", int64_t(Tid));
    J.attributeObject("args", [&] {
      if (SortIndex >= 0)
        J.attribute("sort_index", SortIndex);
      else
        J.attribute("name", Value);
    });
  });
}

static void writeSpan(json::OStream &J, const TraceSpan &S) {
  J.object([&] {
    J.attribute("ph", "X");
    J.attribute("name", S.Name);
    J.attribute("cat", S.Category);
    J.attribute("pid", pidOf(S.Stream));
    J.attribute("tid", int64_t(S.Track));
    J.attribute("ts", micros(S.StartNs));
    J.attribute("dur", micros(S.EndNs - S.StartNs));
    J.attributeObject("args", [&] {
      if (!S.Kernel.empty())
        J.attribute("kernel", S.Kernel);
      if (!S.Staged.empty())
        J.attribute("staged", S.Staged);
      if (S.Outcome)
        J.attribute("result", S.Outcome);
      if (S.Bytes)
        J.attribute("bytes", int64_t(S.Bytes));
    });
  });
}

static void writeEvents(raw_ostream &OS, ArrayRef<TraceSpan> Spans,
                        ArrayRef<TraceTrack> Tracks) {
  json::OStream J(OS);
  J.object([&] {
    J.attribute("displayTimeUnit", "ms");
    J.attributeArray("traceEvents", [&] {
      writeMetadata(J, "process_name", 1, 0, "mstage host threads", -1);
      writeMetadata(J, "process_name", 2, 0, "mstage streams", -1);
      writeMetadata(J, "process_sort_index", 1, 0, "", 1);
      writeMetadata(J, "process_sort_index", 2, 0, "", 2);
      for (const TraceTrack &T : Tracks)
        writeMetadata(J, "thread_name", pidOf(T.Stream), T.Id, T.Name, -1);
      for (const TraceSpan &S : Spans)
        writeSpan(J, S);
    });
  });
  OS << "\n";
}

Error writeChromeTrace(StringRef Path, std::vector<TraceSpan> Spans,
                       ArrayRef<TraceTrack> Tracks) {
  assert(!Path.empty() && "written only when MSTAGE_TRACE names a file");
  llvm::stable_sort(Spans, [](const TraceSpan &A, const TraceSpan &B) {
    return std::make_tuple(A.Stream, A.Track, A.StartNs, -A.EndNs) <
           std::make_tuple(B.Stream, B.Track, B.StartNs, -B.EndNs);
  });
  int FD;
  SmallString<256> Temporary;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + ".%%%%%%.tmp", FD, Temporary))
    return errorCodeToError(EC);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    writeEvents(OS, Spans, Tracks);
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Temporary);
      return errorCodeToError(EC);
    }
  }
  if (std::error_code EC = sys::fs::rename(Temporary, Path)) {
    sys::fs::remove(Temporary);
    return errorCodeToError(EC);
  }
  return Error::success();
}

} // namespace mstage::rt
