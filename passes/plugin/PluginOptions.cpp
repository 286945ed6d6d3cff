//===- PluginOptions.cpp - Options passed from mstage++ to the plugin -----===//
#include "plugin/PluginOptions.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

namespace mstage {

static bool StripDebug = false;

bool stripHostDebugInfo() { return StripDebug; }
void setStripHostDebugInfo(bool Strip) { StripDebug = Strip; }

static bool CheckLoops = true;

bool checkStageLoops() { return CheckLoops; }
void setCheckStageLoops(bool Check) { CheckLoops = Check; }

static std::vector<std::string> AotArchs = {"sm_80", "sm_90"};

const std::vector<std::string> &aotArchs() { return AotArchs; }
void setAotArchs(std::vector<std::string> Archs) {
  assert(llvm::none_of(Archs, [](const std::string &A) { return A.empty(); }) &&
         "the plugin checked each architecture");
  AotArchs = std::move(Archs);
}

static unsigned AotThreads = 0;
unsigned aotThreads() { return AotThreads; }
void setAotThreads(unsigned Threads) { AotThreads = Threads; }

static std::string AotObject;
const std::string &aotObjectPath() { return AotObject; }
void setAotObjectPath(std::string Path) { AotObject = std::move(Path); }

} // namespace mstage
