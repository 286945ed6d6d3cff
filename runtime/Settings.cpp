//===- Settings.cpp - MSTAGE_* settings, parsed one way -------------------===//
#include "Settings.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstdlib>

using namespace llvm;

namespace mstage::rt {

std::optional<bool> parseBool(StringRef Text) {
  return StringSwitch<std::optional<bool>>(Text.trim().lower())
      .Cases({"1", "on", "true", "yes"}, true)
      .Cases({"0", "off", "false", "no"}, false)
      .Default(std::nullopt);
}

Expected<bool> parseBoolSetting(StringRef Name, bool Default) {
  const char *Value = std::getenv(Name.str().c_str());
  if (!Value || !*Value)
    return Default;
  if (std::optional<bool> B = parseBool(Value))
    return *B;
  return createStringError(inconvertibleErrorCode(),
                           Name + "='" + Value +
                               "' is not a boolean; use 1, on, true or yes, "
                               "or 0, off, false or no");
}

BoolSetting readBoolSetting(StringRef Name, bool Default) {
  BoolSetting S;
  Expected<bool> B = parseBoolSetting(Name, Default);
  if (B)
    S.Value = *B;
  else
    S.Error = toString(B.takeError());
  return S;
}

} // namespace mstage::rt
