//===- RuntimeError.h - The C API's per-thread error message --------------===//
#ifndef MSTAGE_RUNTIME_CORE_RUNTIMEERROR_H
#define MSTAGE_RUNTIME_CORE_RUNTIMEERROR_H

#include <string>

namespace mstage::rt {

// Records Message as the calling thread's last error and returns 1, the C
// API's failure status.
int fail(std::string Message);

const char *lastError();

} // namespace mstage::rt

#endif
