//===- Settings.cpp - MSTAGE_* settings, parsed one way -------------------===//
#include "support/Settings.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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

// Why Path cannot be written, or "".
static std::string unwritable(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return "it is a folder";
  StringRef Dir = sys::path::parent_path(Path);
  if (!sys::fs::is_directory(Dir))
    return "its folder '" + Dir.str() + "' does not exist";
  if (std::error_code EC = sys::fs::access(Dir, sys::fs::AccessMode::Write))
    return "its folder '" + Dir.str() + "' is not writable (" + EC.message() +
           ")";
  if (sys::fs::exists(Path))
    if (std::error_code EC = sys::fs::access(Path, sys::fs::AccessMode::Write))
      return EC.message();
  return "";
}

TraceSetting parseTraceSetting(StringRef Text) {
  TraceSetting S;
  if (Text.trim().empty())
    return S;
  if (std::optional<bool> B = parseBool(Text)) {
    S.Text = *B;
    return S;
  }
  StringRef File = Text;
  if (!File.consume_front("chrome:")) {
    S.Error = ("MSTAGE_TRACE='" + Text +
               "' is not a boolean; use 1, on, true or yes, or 0, off, false "
               "or no, or chrome:FILE.json for a timeline")
                  .str();
    return S;
  }
  if (File.empty()) {
    S.Error = "MSTAGE_TRACE='chrome:' names no file; use chrome:FILE.json";
    return S;
  }
  SmallString<256> Path(File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  if (std::string Why = unwritable(Path); !Why.empty()) {
    S.Error = ("MSTAGE_TRACE='" + Text + "': cannot write the trace to '" +
               Path + "': " + Why)
                  .str();
    return S;
  }
  S.ChromeFile = Path.str().str();
  return S;
}

TraceSetting readTraceSetting() {
  const char *Value = std::getenv("MSTAGE_TRACE");
  return parseTraceSetting(Value ? Value : "");
}

} // namespace mstage::rt
