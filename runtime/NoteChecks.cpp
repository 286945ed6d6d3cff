//===- NoteChecks.cpp - mstage_rt_note_checks: a unit's bounds checks -----===//
//
// The static initializer of mstage/bounds_check.hpp calls it once per
// translation unit; inspect/ChecksNote.h keeps and reports the notes.
//
//===----------------------------------------------------------------------===//
#include "inspect/ChecksNote.h"
#include "mstage/abi.h"
#include "support/Export.h"

extern "C" MSTAGE_EXPORT int mstage_rt_note_checks(int On, const char *Reason,
                                                   const char *Unit) {
  mstage::rt::noteChecks(On != 0, Reason ? Reason : "", Unit ? Unit : "");
  return On;
}
