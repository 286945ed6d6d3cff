//===- RuntimeError.h - The C API's per-thread error message --------------===//
#ifndef MSTAGE_RUNTIME_CORE_RUNTIMEERROR_H
#define MSTAGE_RUNTIME_CORE_RUNTIMEERROR_H

#include "support/RuntimeFailure.h"

namespace mstage::rt {

// Records E's text (support/RuntimeFailure.h) as the calling thread's last
// error and returns 1, the C API's failure status; every mstage_rt_* entry
// point fails through it. E must be a failure.
int failWith(llvm::Error E);

// The C API's status for E: 0 for success, else failWith(E).
inline int toStatus(llvm::Error E) { return E ? failWith(std::move(E)) : 0; }

const char *lastError();

} // namespace mstage::rt

#endif
