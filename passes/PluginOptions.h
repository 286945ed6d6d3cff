//===- PluginOptions.h - Options passed from mstage++ to the plugin -------===//
//
// The front-end action receives -plugin-arg-mstage options; the pass, in the
// same shared object, reads them here.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_PLUGINOPTIONS_H
#define MSTAGE_PASSES_PLUGINOPTIONS_H

namespace mstage {

// True when mstage++ added line tables that the user did not ask for.
bool stripHostDebugInfo();
void setStripHostDebugInfo(bool Strip);

} // namespace mstage

#endif
