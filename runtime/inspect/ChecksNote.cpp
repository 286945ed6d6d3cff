//===- ChecksNote.cpp - Which units were built with bounds checks ---------===//
#include "inspect/ChecksNote.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

using namespace llvm;

namespace mstage::rt {

namespace {
struct UnitChecks {
  bool On;
  std::string Reason, Unit;
};

struct Notes {
  std::mutex Lock;
  std::vector<UnitChecks> Units;
};

// Static initializers of the program's units call noteChecks, possibly
// before this file's own statics are built: a function-local static.
Notes &notes() {
  static Notes *N = new Notes; // outlives the units' static destructors
  return *N;
}
} // namespace

void noteChecks(bool On, StringRef Reason, StringRef Unit) {
  Notes &N = notes();
  std::lock_guard<std::mutex> G(N.Lock);
  N.Units.push_back({On, Reason.str(), sys::path::filename(Unit).str()});
}

std::string checksSummary() {
  Notes &N = notes();
  std::lock_guard<std::mutex> G(N.Lock);
  if (N.Units.empty())
    return "";
  const UnitChecks &First = N.Units.front();
  std::string Text = "bounds checks: ";
  if (all_of(N.Units, [&](const UnitChecks &U) {
        return U.On == First.On && U.Reason == First.Reason;
      }))
    return Text + (First.On ? "on (" : "off (") + First.Reason + ")";
  for (const UnitChecks &U : N.Units) {
    if (&U != &First)
      Text += ", ";
    Text += (U.On ? "on in " : "off in ") + U.Unit + " (" + U.Reason + ")";
  }
  return Text;
}

std::string uncheckedUnits() {
  Notes &N = notes();
  std::lock_guard<std::mutex> G(N.Lock);
  std::string Text;
  for (const UnitChecks &U : N.Units)
    if (!U.On)
      Text += (Text.empty() ? "" : ", ") + U.Unit + " (" + U.Reason + ")";
  return Text;
}

// Said at exit, after the launches' lines: in their midst it would split a
// warning from the launch that it belongs to.
void traceChecksOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::atexit([] {
      std::fflush(stdout); // after the program's own output
      std::string Summary = checksSummary();
      if (!Summary.empty())
        errs() << "mstage: trace: " << Summary << "\n";
    });
  });
}

} // namespace mstage::rt
