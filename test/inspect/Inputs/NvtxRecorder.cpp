//===- NvtxRecorder.cpp - An NVTX tool that writes down ranges ------------===//
//
// A tool as Nsight Systems is one, for lit: loaded by NVTX through
// NVTX_INJECTION64_PATH (NVTX's documented injection interface,
// nvtxDetail/nvtxInit.h), it takes over the domain calls and writes each
// push and pop to the file NVTX_RECORDER_LOG names, a line each:
// "init" when loaded, "push <domain> T<thread>: <message>",
// "pop <domain> T<thread>", threads numbered in the order they first push.
//
//===----------------------------------------------------------------------===//
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace {

std::mutex Lock;
std::FILE *Log = nullptr;
std::map<std::string, std::string *> Domains; // name -> its handle
std::map<std::thread::id, int> Threads;

int threadNumber() {
  auto [It, New] = Threads.try_emplace(std::this_thread::get_id(),
                                       int(Threads.size()));
  return It->second;
}

const char *name(nvtxDomainHandle_t D) {
  return D ? reinterpret_cast<std::string *>(D)->c_str() : "(default)";
}

nvtxDomainHandle_t NVTX_API domainCreate(const char *Name) {
  std::lock_guard<std::mutex> G(Lock);
  std::string *&H = Domains[Name];
  if (!H)
    H = new std::string(Name);
  return reinterpret_cast<nvtxDomainHandle_t>(H);
}

int NVTX_API push(nvtxDomainHandle_t D, const nvtxEventAttributes_t *A) {
  std::lock_guard<std::mutex> G(Lock);
  const char *Message = A && A->messageType == NVTX_MESSAGE_TYPE_ASCII
                            ? A->message.ascii
                            : "(not ascii)";
  std::fprintf(Log, "push %s T%d: %s\n", name(D), threadNumber(), Message);
  std::fflush(Log);
  return 0;
}

int NVTX_API pop(nvtxDomainHandle_t D) {
  std::lock_guard<std::mutex> G(Lock);
  std::fprintf(Log, "pop %s T%d\n", name(D), threadNumber());
  std::fflush(Log);
  return 0;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t GetExportTable) {
  const char *Path = std::getenv("NVTX_RECORDER_LOG");
  Log = Path ? std::fopen(Path, "w") : nullptr;
  if (!Log)
    return 0; // NVTX then turns itself off
  std::fprintf(Log, "init\n");
  auto *Callbacks = static_cast<const NvtxExportTableCallbacks *>(
      GetExportTable(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable Table = nullptr;
  unsigned Size = 0;
  if (!Callbacks ||
      !Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &Table, &Size) ||
      Size <= NVTX_CBID_CORE2_DomainCreateA)
    return 0;
  *Table[NVTX_CBID_CORE2_DomainCreateA] =
      reinterpret_cast<NvtxFunctionPointer>(&domainCreate);
  *Table[NVTX_CBID_CORE2_DomainRangePushEx] =
      reinterpret_cast<NvtxFunctionPointer>(&push);
  *Table[NVTX_CBID_CORE2_DomainRangePop] =
      reinterpret_cast<NvtxFunctionPointer>(&pop);
  return 1;
}
