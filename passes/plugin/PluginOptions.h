//===- PluginOptions.h - Options passed from mstage++ to the plugin -------===//
//
// The front-end action receives -plugin-arg-mstage options; the pass, in the
// same shared object, reads them here.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_PLUGIN_PLUGINOPTIONS_H
#define MSTAGE_PASSES_PLUGIN_PLUGINOPTIONS_H

#include <string>
#include <vector>

namespace mstage {

// True when mstage++ added line tables that the user did not ask for.
bool stripHostDebugInfo();
void setStripHostDebugInfo(bool Strip);

// False with -plugin-arg-mstage no-stage-loop-check: a stage() site whose
// value varies in a loop is folded with one iteration's value instead of
// being an error. Only for testing MSTAGE_CHECK=stage, which catches it.
bool checkStageLoops();
void setCheckStageLoops(bool Check);

// The targets of the ahead-of-time generic code (-mstage-arch=, given as
// -plugin-arg-mstage aot-arch=LIST): sm_80 and sm_90 unless set; empty for
// -mstage-arch=none.
const std::vector<std::string> &aotArchs();
void setAotArchs(std::vector<std::string> Archs);

// The threads that compile the generic code's kernels (-plugin-arg-mstage
// aot-threads=N): 0, the default, for all the cores; 1 compiles them one
// after the other (the same code, for comparing and measuring).
unsigned aotThreads();
void setAotThreads(unsigned Threads);

// Where the ahead-of-time images go (-plugin-arg-mstage aot-object=PATH,
// from mstage++ -c): an object of their own that mstage++ joins to the host
// object, so that the host code generation need not wait for them; "" (the
// default) embeds them in the host module.
const std::string &aotObjectPath();
void setAotObjectPath(std::string Path);

} // namespace mstage

#endif
