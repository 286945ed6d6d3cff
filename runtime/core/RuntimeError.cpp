//===- RuntimeError.cpp - The C API's per-thread error message ------------===//
#include "core/RuntimeError.h"
#include "support/Export.h"

#include "mstage/abi.h"

namespace mstage::rt {

static thread_local std::string LastError;

int failWith(llvm::Error E) {
  assert(E && "failWith needs a failure");
  LastError = llvm::toString(std::move(E));
  return 1;
}

const char *lastError() { return LastError.c_str(); }

} // namespace mstage::rt

extern "C" MSTAGE_EXPORT const char *mstage_rt_last_error(void) {
  return mstage::rt::lastError();
}
