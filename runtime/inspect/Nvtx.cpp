//===- Nvtx.cpp - NVTX ranges of what the runtime does --------------------===//
#include "inspect/Nvtx.h"
#include "inspect/Stats.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mstage::rt {

std::string nvtxKeyText(const mstage::KernelBlob &Kernel,
                        std::string_view Key) {
  std::string S;
  llvm::raw_string_ostream(S)
      << Kernel.PrettyName << " key "
      << llvm::format_hex_no_prefix(specializationId(Key), 16);
  return S;
}

} // namespace mstage::rt

#ifdef MSTAGE_HAVE_NVTX
#include "llvm/ADT/SmallString.h"

#include <nvtx3/nvToolsExt.h>

namespace mstage::rt {

// Null without a tool: NVTX's calls are then no-ops, and no range is made.
static nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t D = nvtxDomainCreateA("mstage");
  return D;
}

bool nvtxActive() {
  static const bool Active = domain() != nullptr;
  return Active;
}

void nvtxPush(const llvm::Twine &Message) {
  llvm::SmallString<160> Buf;
  nvtxEventAttributes_t A = {};
  A.version = NVTX_VERSION;
  A.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  A.messageType = NVTX_MESSAGE_TYPE_ASCII;
  A.message.ascii = Message.toNullTerminatedStringRef(Buf).data();
  nvtxDomainRangePushEx(domain(), &A);
}

void nvtxPop() { nvtxDomainRangePop(domain()); }

} // namespace mstage::rt
#endif
