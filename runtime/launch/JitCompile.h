//===- JitCompile.h - A specialization's PTX, from the JIT ----------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_JITCOMPILE_H
#define MSTAGE_RUNTIME_LAUNCH_JITCOMPILE_H

#include "inspect/Trace.h"
#include "launch/CodeRequest.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mstage::rt {

// Whether R's specialization begins with griddepcontrol.wait
// (transforms/KernelEntryWait.h), so that it is launched programmatically:
// MSTAGE_PDL is on, R's target is sm_90 or newer, the kernel is not one
// compiled for the debugger, and its grid may fit on R's device at once
// (about one wave or less: the wait in every block of a many-wave grid, and
// the next grid's blocks taking slots early, cost more than PDL hides;
// docs/performance.md). The disk cache's key includes it. Once loaded, the
// code is launched programmatically only if the grid fits by its occupancy
// (loadCode).
bool entryWaitWanted(const CodeRequest &R);

// R's specialization compiled to PTX (jit/JitCompiler.h), the times of its
// phases in Times. Under MSTAGE_DUMP=ir its optimized IR is dumped, named
// with ShortHash. Quick: tier 0's pipeline, whose IR is not dumped (the
// dump is tier 1's).
llvm::Expected<std::string> compileToPtx(const CodeRequest &R,
                                         uint64_t ShortHash, LaunchTimes &Times,
                                         bool Quick = false);

} // namespace mstage::rt

#endif
