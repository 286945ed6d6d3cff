//===- Settings.h - MSTAGE_* settings, parsed one way ---------------------===//
//
// Every boolean MSTAGE_* variable takes the same values: 1, on, true or yes;
// 0, off, false or no (in any case). Anything else is an error that names the
// variable and its value; the runtime fails launches with it, as it does for
// any setting it cannot read.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_SETTINGS_H
#define MSTAGE_RUNTIME_SUPPORT_SETTINGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mstage::rt {

// Text as a boolean, or nothing when it is not one of the words above.
std::optional<bool> parseBool(llvm::StringRef Text);

// The boolean environment variable Name: Default when it is unset or empty,
// else its value, or an error such as "MSTAGE_TRACE='maybe' is not a
// boolean (...)".
llvm::Expected<bool> parseBoolSetting(llvm::StringRef Name,
                                      bool Default = false);

// The same, kept as a value (for a setting read once into a static): Error
// is empty when the setting is valid.
struct BoolSetting {
  bool Value = false;
  std::string Error;
};
BoolSetting readBoolSetting(llvm::StringRef Name, bool Default = false);

// MSTAGE_TRACE: a boolean (the text trace, one line per launch), or
// chrome:FILE, a timeline written to FILE at exit (TraceEvents.h). FILE is
// made absolute when read, and its folder must be writable then, so that a
// path that cannot be written fails the first launch, not the exit.
struct TraceSetting {
  bool Text = false;
  std::string ChromeFile; // absolute; empty without chrome:
  std::string Error;
};
TraceSetting parseTraceSetting(llvm::StringRef Text);
TraceSetting readTraceSetting();

} // namespace mstage::rt

#endif
