//===- TimerApi.cpp - YAKL's timer_start and timer_stop, with a table -----===//
//
// MSTAGE_TIMERS=on times the user's labeled spans (mstage/timer.hpp) as
// YAKL's timers do: each start and stop waits for all the process's device
// work first, so that a span holds the GPU work launched in it. Spans
// nest, and a label may be timed on several threads at once (the start is
// kept per thread); the table sums them per label and is printed to stderr
// at exit, in the order of each label's first start.
//
//===----------------------------------------------------------------------===//
#include "core/RuntimeError.h"
#include "support/Export.h"
#include "support/RuntimeFailure.h"
#include "support/Settings.h"

#include "mstage/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace mstage::rt;

namespace {

struct TimerRow {
  std::string Label;
  uint64_t Count = 0;
  double Total = 0, Min = std::numeric_limits<double>::infinity(), Max = 0;
};

// Constructed at the first start; its destructor, at exit, prints the
// table (in the process that timed, not in a forked child).
struct TimerTable {
  std::mutex Lock;
  StringMap<size_t> Index;
  std::vector<TimerRow> Rows;
  pid_t Owner = getpid();

  // The label's row, made at its first start (the table's order).
  TimerRow &row(StringRef Label) {
    auto [It, New] = Index.try_emplace(Label, Rows.size());
    if (New)
      Rows.push_back(TimerRow{Label.str()});
    return Rows[It->second];
  }
  void started(StringRef Label) {
    std::lock_guard<std::mutex> G(Lock);
    row(Label);
  }
  void add(StringRef Label, double Seconds) {
    std::lock_guard<std::mutex> G(Lock);
    TimerRow &R = row(Label);
    ++R.Count;
    R.Total += Seconds;
    R.Min = std::min(R.Min, Seconds);
    R.Max = std::max(R.Max, Seconds);
  }

  ~TimerTable() {
    std::lock_guard<std::mutex> G(Lock);
    if (Rows.empty() || getpid() != Owner)
      return;
    size_t Width = 5;
    for (const TimerRow &R : Rows)
      Width = std::max(Width, R.Label.size());
    raw_ostream &OS = errs();
    OS << "mstage: timers (seconds; each start and stop waited for the "
          "device):\n";
    OS << "mstage: timers: " << left_justify("label", Width)
       << format(" %8s %12s %12s %12s %12s\n", "count", "total", "mean", "min",
                 "max");
    for (const TimerRow &R : Rows)
      OS << "mstage: timers: " << left_justify(R.Label, Width)
         << format(" %8llu %12.6f %12.6f %12.6f %12.6f\n",
                   (unsigned long long)R.Count, R.Total, R.Total / R.Count,
                   R.Min, R.Max);
  }
};

TimerTable &table() {
  static TimerTable T;
  return T;
}

// The calling thread's running spans: label and start, innermost last.
thread_local std::vector<std::pair<std::string, double>> Running;

double now() { return TimeRecord::getCurrentTime(true).getWallTime(); }

Error checkOn(const char *Label, bool &On) {
  const TimersSetting &S = timersSetting();
  if (!S.Error.empty())
    return failure(S.Error);
  On = S.On;
  if (On && (!Label || !*Label))
    return failure("timer_start/timer_stop: the label is empty");
  return Error::success();
}

} // namespace

extern "C" {

MSTAGE_EXPORT int mstage_rt_timer_start(const char *Label) {
  bool On = false;
  if (Error E = checkOn(Label, On))
    return failWith(std::move(E));
  if (!On)
    return 0;
  for (const auto &[Name, Start] : Running)
    if (Name == Label)
      return failWith(failure("timer_start: timer '" + Twine(Label) +
                              "' is already running on this thread"));
  if (int Status = mstage_rt_synchronize())
    return Status;
  table().started(Label);
  Running.emplace_back(Label, now());
  return 0;
}

MSTAGE_EXPORT int mstage_rt_timer_stop(const char *Label) {
  bool On = false;
  if (Error E = checkOn(Label, On))
    return failWith(std::move(E));
  if (!On)
    return 0;
  auto It = std::find_if(Running.rbegin(), Running.rend(),
                         [&](const auto &P) { return P.first == Label; });
  if (It == Running.rend())
    return failWith(failure("timer_stop: timer '" + Twine(Label) +
                            "' was not started on this thread"));
  double Start = It->second;
  Running.erase(std::next(It).base());
  int Status = mstage_rt_synchronize();
  table().add(Label, now() - Start);
  return Status;
}

MSTAGE_EXPORT int mstage_rt_timers_mode(void) {
  const TimersSetting &S = timersSetting();
  if (!S.Error.empty())
    return -1;
  return S.Kernels ? 2 : S.On ? 1 : 0;
}

MSTAGE_EXPORT int mstage_rt_b4b(int *On) {
  const BoolSetting &S = b4bSetting();
  if (!S.Error.empty())
    return failWith(failure(S.Error));
  *On = S.Value;
  return 0;
}

} // extern "C"
