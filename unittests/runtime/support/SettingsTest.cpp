//===- SettingsTest.cpp - Tests of the settings' pure parsers -------------===//
#include "support/Settings.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace mstage::rt;

namespace {

TEST(Settings, ParseBool) {
  for (const char *T : {"1", "on", "true", "yes", "ON", "True", " yes\t"})
    EXPECT_EQ(parseBool(T), std::optional<bool>(true)) << T;
  for (const char *T : {"0", "off", "false", "no", "NO", " 0 "})
    EXPECT_EQ(parseBool(T), std::optional<bool>(false)) << T;
  for (const char *T : {"", " ", "2", "y", "enable", "truee", "1 1", "-1"})
    EXPECT_EQ(parseBool(T), std::nullopt) << T;
}

TEST(Settings, ParseTraceSetting) {
  TraceSetting Off = parseTraceSetting("");
  EXPECT_FALSE(Off.Text);
  EXPECT_EQ(Off.ChromeFile, "");
  EXPECT_EQ(Off.Error, "");
  EXPECT_TRUE(parseTraceSetting("1").Text);
  EXPECT_FALSE(parseTraceSetting("off").Text);
  EXPECT_EQ(parseTraceSetting("maybe").Error,
            "MSTAGE_TRACE='maybe' is not a boolean; use 1, on, true or yes, "
            "or 0, off, false or no, or chrome:FILE.json for a timeline");
  EXPECT_EQ(parseTraceSetting("chrome:").Error,
            "MSTAGE_TRACE='chrome:' names no file; use chrome:FILE.json");
  // A file is made absolute, and its folder must exist.
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mstage-unittest", Dir));
  std::string File = (Dir + "/a/../t.json").str();
  TraceSetting T = parseTraceSetting("chrome:" + File);
  EXPECT_EQ(T.Error, "");
  EXPECT_EQ(T.ChromeFile, (Dir + "/t.json").str());
  EXPECT_FALSE(T.Text);
  TraceSetting Missing =
      parseTraceSetting("chrome:" + (Dir + "/no/t.json").str());
  EXPECT_EQ(Missing.Error,
            "MSTAGE_TRACE='chrome:" + (Dir + "/no/t.json").str() +
                "': cannot write the trace to '" + (Dir + "/no/t.json").str() +
                "': its folder '" + (Dir + "/no").str() + "' does not exist");
  TraceSetting Folder = parseTraceSetting("chrome:" + Dir.str().str());
  EXPECT_EQ(Folder.ChromeFile, "");
  EXPECT_NE(Folder.Error.find("it is a folder"), std::string::npos)
      << Folder.Error;
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
