//===- DeviceGlobals.cpp - The device globals of the registered units -----===//
#include "core/DeviceGlobals.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"

#include <mutex>
#include <vector>

namespace mstage::rt {
namespace {

struct Units {
  std::mutex Lock;
  std::vector<const mstage_module_record *> WithGlobals;
};

// Never destroyed: units unregister from static destructors.
Units &units() {
  static Units *U = new Units;
  return *U;
}

} // namespace

void addDeviceGlobals(const mstage_module_record &Module) {
  if (Module.num_globals == 0)
    return;
  Units &U = units();
  std::lock_guard<std::mutex> G(U.Lock);
  U.WithGlobals.push_back(&Module);
}

void removeDeviceGlobals(const mstage_module_record &Module) {
  Units &U = units();
  std::lock_guard<std::mutex> G(U.Lock);
  llvm::erase(U.WithGlobals, &Module);
}

void forEachDeviceGlobal(
    llvm::function_ref<void(const mstage_global_record &)> Fn) {
  Units &U = units();
  std::lock_guard<std::mutex> G(U.Lock);
  for (const mstage_module_record *M : U.WithGlobals)
    for (uint32_t I = 0; I < M->num_globals; ++I)
      Fn(M->globals[I]);
}

std::string deviceGlobalName(const char *DeviceName) {
  llvm::StringRef Symbol(DeviceName);
  Symbol.consume_front("__mstage_global_");
  std::string Name = llvm::demangle(Symbol);
  // A variable of internal linkage: its file's hash follows the symbol.
  if (size_t Hash = Symbol.rfind('_');
      Name == Symbol && Hash != 0 && Hash != llvm::StringRef::npos)
    if (std::string Inner = llvm::demangle(Symbol.take_front(Hash));
        Inner != Symbol.take_front(Hash))
      return Inner;
  return Name;
}

std::string undefinedDeviceGlobal(const mstage_module_record &Module) {
  for (uint32_t I = 0; I < Module.num_globals; ++I)
    if (!Module.globals[I].host)
      return "its file uses device_global '" +
             deviceGlobalName(Module.globals[I].device_name) +
             "', declared extern, and no file of the program defines it";
  return "";
}

} // namespace mstage::rt
