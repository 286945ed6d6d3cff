//===- CudaDeviceGlobals.cpp - device_global values on the GPU ------------===//
#include "backends/cuda/CudaDeviceGlobals.h"
#include "core/DeviceGlobals.h"
#include "cuda/CudaDriver.h"
#include "support/RuntimeFailure.h"

#include "llvm/ADT/DenseSet.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mstage::rt {
namespace {

// One device's object of one device global.
struct OnDevice {
  CUdeviceptr Object = 0;  // a device global's allocation
  std::vector<char> Value; // a constant's value
  std::vector<std::pair<CUmodule, CUdeviceptr>> Copies; // a constant's
};

struct Global {
  size_t Bytes = 0;
  bool Constant = false;
  std::map<unsigned, OnDevice> Devices;
};

struct State {
  std::mutex Lock;
  std::map<const void *, Global> Globals; // by host object
};

// Never destroyed: modules unload from static destructors.
State &state() {
  static State *S = new State;
  return *S;
}

// Name: the variable's module name, where the caller knows it.
llvm::Error mismatch(const void *Host, const char *Name, size_t Bytes,
                     bool Constant, const Global &G) {
  auto Kind = [](size_t N, bool C) {
    return std::to_string(N) + " bytes" + (C ? " of constant memory" : "");
  };
  return failure(
      "device_global " +
      (Name ? "'" + deviceGlobalName(Name) + "'"
            : "at " + std::to_string(reinterpret_cast<uintptr_t>(Host))) +
      " is " + Kind(G.Bytes, G.Constant) + ", and " +
      (Name ? "a file's declaration" : "a call") + " treats it as " +
      Kind(Bytes, Constant) + "; its declarations differ between files");
}

// Device's object of G, made from the host object's bytes the first time.
llvm::Expected<OnDevice *> onDevice(Global &G, const void *Host,
                                    unsigned Device) {
  auto [It, New] = G.Devices.try_emplace(Device);
  OnDevice &D = It->second;
  if (!New)
    return &D;
  if (G.Constant) {
    D.Value.assign(static_cast<const char *>(Host),
                   static_cast<const char *>(Host) + G.Bytes);
    return &D;
  }
  CudaDriver &Driver = *CudaDriver::at(Device);
  llvm::Error E = Driver.alloc(G.Bytes, &D.Object);
  if (!E)
    E = Driver.copyToDevice(D.Object, Host, G.Bytes);
  if (E) {
    if (D.Object)
      llvm::consumeError(Driver.free(D.Object));
    G.Devices.erase(It);
    return std::move(E);
  }
  return &D;
}

// Name: as for mismatch().
llvm::Expected<Global *> find(State &S, const void *Host, size_t Bytes,
                              bool Constant, const char *Name = nullptr) {
  auto [It, New] = S.Globals.try_emplace(Host);
  Global &G = It->second;
  if (New) {
    G.Bytes = Bytes;
    G.Constant = Constant;
  } else if (G.Bytes != Bytes || G.Constant != Constant) {
    return mismatch(Host, Name, Bytes, Constant, G);
  }
  return &G;
}

// Device's object of the global at Host, and the held lock that guards it:
// what an upload and a download both start with.
struct Locked {
  std::unique_lock<std::mutex> Held;
  OnDevice *D;
};
llvm::Expected<Locked> lookUp(unsigned Device, const void *Host, size_t Bytes,
                              bool Constant) {
  State &S = state();
  std::unique_lock<std::mutex> L(S.Lock);
  auto G = find(S, Host, Bytes, Constant);
  if (!G)
    return G.takeError();
  auto D = onDevice(**G, Host, Device);
  if (!D)
    return D.takeError();
  return Locked{std::move(L), *D};
}

} // namespace

llvm::Error bindDeviceGlobals(unsigned Device, CUmodule Module) {
  State &S = state();
  std::lock_guard<std::mutex> L(S.Lock);
  CudaDriver &Driver = *CudaDriver::at(Device);
  llvm::Error First = llvm::Error::success();
  // A variable that a unit defines and others declare extern has a record
  // of each: the module's variable is bound once.
  llvm::SmallDenseSet<llvm::StringRef, 8> Bound;
  forEachDeviceGlobal([&](const mstage_global_record &R) {
    if (First)
      return;
    if (Bound.contains(R.device_name)) {
      // The declarations must agree with the definition.
      if (auto G = find(S, R.host, R.size, R.constant != 0, R.device_name); !G)
        First = G.takeError();
      return;
    }
    CUdeviceptr Var = 0;
    size_t VarBytes = 0;
    if ((First = Driver.getGlobal(Module, R.device_name, &Var, &VarBytes)) ||
        !Var)
      return;
    if (!R.host) {
      First = failure("device_global '" + deviceGlobalName(R.device_name) +
                      "' is declared extern, and no file of the program "
                      "defines it");
      return;
    }
    auto G = find(S, R.host, R.size, R.constant != 0, R.device_name);
    if (!G) {
      First = G.takeError();
      return;
    }
    auto D = onDevice(**G, R.host, Device);
    if (!D) {
      First = D.takeError();
      return;
    }
    Bound.insert(R.device_name);
    size_t Expected = R.constant ? R.size : sizeof(CUdeviceptr);
    if (VarBytes != Expected) {
      First = failure(std::string("the module variable ") + R.device_name +
                      " is " + std::to_string(VarBytes) + " bytes, not " +
                      std::to_string(Expected));
      return;
    }
    if (R.constant) {
      (*D)->Copies.emplace_back(Module, Var);
      First = Driver.copyToDevice(Var, (*D)->Value.data(), R.size);
    } else {
      First = Driver.copyToDevice(Var, &(*D)->Object, sizeof(CUdeviceptr));
    }
  });
  return First;
}

void forgetDeviceGlobals(unsigned Device, CUmodule Module) {
  State &S = state();
  std::lock_guard<std::mutex> L(S.Lock);
  for (auto &[Host, G] : S.Globals)
    if (auto D = G.Devices.find(Device); D != G.Devices.end())
      llvm::erase_if(D->second.Copies,
                     [&](const auto &C) { return C.first == Module; });
}

llvm::Error uploadDeviceGlobal(unsigned Device, const void *Host, size_t Bytes,
                               bool Constant, const void *Value) {
  auto L = lookUp(Device, Host, Bytes, Constant);
  if (!L)
    return L.takeError();
  CudaDriver &Driver = *CudaDriver::at(Device);
  if (!Constant)
    return Driver.copyToDevice(L->D->Object, Value, Bytes);
  std::memcpy(L->D->Value.data(), Value, Bytes);
  for (auto &[Module, Var] : L->D->Copies)
    if (llvm::Error E = Driver.copyToDevice(Var, Value, Bytes))
      return E;
  return llvm::Error::success();
}

llvm::Error downloadDeviceGlobal(unsigned Device, const void *Host,
                                 size_t Bytes, bool Constant, void *Value) {
  auto L = lookUp(Device, Host, Bytes, Constant);
  if (!L)
    return L.takeError();
  if (!Constant)
    return CudaDriver::at(Device)->copyToHost(Value, L->D->Object, Bytes);
  // Kernels do not write constants: the kept value is the device's.
  std::memcpy(Value, L->D->Value.data(), Bytes);
  return llvm::Error::success();
}

} // namespace mstage::rt
