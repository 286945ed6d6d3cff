//===- PluginOptions.cpp - Options passed from mstage++ to the plugin -----===//
#include "plugin/PluginOptions.h"

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
  AotArchs = std::move(Archs);
}

} // namespace mstage
