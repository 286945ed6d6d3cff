//===- NoteResources.h - What a specialization's code uses ---- -*- C++ -*-===//
//
// MSTAGE_STATS's resource table (inspect/Stats.h): when the JIT runs ptxas,
// its -v report (registers, spills, shared and local memory) and the
// occupancy that follows from the architecture's limits; once the code is
// loaded on a GPU, the driver's own figures for the function, which replace
// them (the spills stay ptxas's: the driver does not give them).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_NOTERESOURCES_H
#define MSTAGE_RUNTIME_LAUNCH_NOTERESOURCES_H

#include "launch/CodeRequest.h"

#include "llvm/ADT/StringRef.h"

namespace mstage::rt {

// Whether the resources are wanted: ptxas then runs with -v.
bool resourcesWanted();

// ptxas -v's Report on R's code.
void noteResourcesFromPtxas(const CodeRequest &R, llvm::StringRef Report);

// R's code, loaded as Function on R.D.
void noteResourcesOfFunction(const CodeRequest &R, CUfunction Function);

} // namespace mstage::rt

#endif
