//===- ChecksNote.h - Which units were built with bounds checks -*- C++ -*-===//
//
// Every translation unit that includes mstage/bounds_check.hpp says, from a
// static initializer, whether its bounds and barrier checks are on and why
// (mstage_rt_note_checks). MSTAGE_TRACE and MSTAGE_STATS say it once per run,
// so that a measurement of checked code does not pass for one of plain code.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_INSPECT_CHECKSNOTE_H
#define MSTAGE_RUNTIME_INSPECT_CHECKSNOTE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mstage::rt {

void noteChecks(bool On, llvm::StringRef Reason, llvm::StringRef Unit);

// "bounds checks: off (built at -O1 or above)" when every unit agrees, else
// "bounds checks: on in a.cpp (built at -O0), off in b.cpp (built with
// NDEBUG)"; empty when no unit said anything.
std::string checksSummary();

// The units built without the checks, "a.cpp (built at -O1 or above), b.cpp
// (...)"; empty when every unit has them or none said anything.
std::string uncheckedUnits();

// MSTAGE_TRACE: "mstage: trace: <summary>" on stderr, at the first launch.
void traceChecksOnce();

} // namespace mstage::rt

#endif
