//===- NvtxApi.cpp - The C ABI of the user's NVTX ranges ------------------===//
#include "inspect/Nvtx.h"
#include "support/Export.h"

#include "mstage/abi.h"

using namespace mstage::rt;

extern "C" {

// Without a tool, nothing: not even the message's copy.
MSTAGE_EXPORT void mstage_rt_nvtx_push(const char *Message) {
  if (nvtxActive())
    nvtxPush(Message ? Message : "");
}

MSTAGE_EXPORT void mstage_rt_nvtx_pop(void) {
  if (nvtxActive())
    nvtxPop();
}

} // extern "C"
