//===- CudaDriver.cpp - The CUDA Driver API, loaded at run time -----------===//
//
// Binds the driver's entry points (cuda/CudaEntries.def) with dlsym. Each
// pointer has the type that cuda.h (CUDA 13.0) declares, and is looked up
// under the versioned symbol that cuda.h's #defines select for that type
// (cuMemAlloc is cuMemAlloc_v2, ...); a static_assert below keeps the two in
// step.
//
//===----------------------------------------------------------------------===//
#include "cuda/CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace mstage::rt;
using llvm::ArrayRef;
using llvm::consumeError;
using llvm::Error;
using llvm::Expected;
using llvm::make_error;

namespace {

// The library that the driver installs; the unversioned libcuda.so is a
// development link and may be the toolkit's stub.
constexpr const char *DriverLibrary = "libcuda.so.1";

} // namespace

// The entry points are listed in cuda/CudaEntries.def. A macro argument is
// expanded before it is substituted, so Api arrives as cuda.h's versioned
// name: the static_assert compares that name with Symbol, and the field for
// cuMemAlloc is named cuMemAlloc_v2, which Fn.cuMemAlloc(...) also expands to.
#define MSTAGE_STRINGIFY(Name) #Name
#define MSTAGE_EXPANDED_NAME(Name) MSTAGE_STRINGIFY(Name)

#define MSTAGE_CUDA_ENTRY(Api, Symbol)                                         \
  static_assert(std::string_view(MSTAGE_EXPANDED_NAME(Api)) == Symbol,         \
                "cuda.h maps this function to another symbol than " Symbol);
#include "cuda/CudaEntries.def"

struct CudaDriver::Entries {
#define MSTAGE_CUDA_ENTRY(Api, Symbol) decltype(&::Api) Api = nullptr;
#include "cuda/CudaEntries.def"

  // Looks up every entry point in Library. Returns the symbols it lacks,
  // separated by ", " (empty when all were found).
  std::string resolve(void *Library) {
    std::string Missing;
#define MSTAGE_CUDA_ENTRY(Api, Symbol)                                         \
  Api = reinterpret_cast<decltype(Api)>(dlsym(Library, Symbol));               \
  if (!Api)                                                                    \
    Missing += Missing.empty() ? Symbol : ", " Symbol;
#include "cuda/CudaEntries.def"
    return Missing;
  }
};

namespace {

std::string formatError(const CudaDriver::Entries &Fn, CUresult Code,
                        std::string_view What) {
  const char *Name = nullptr;
  const char *Text = nullptr;
  if (Fn.cuGetErrorName(Code, &Name) != CUDA_SUCCESS)
    Name = nullptr;
  if (Fn.cuGetErrorString(Code, &Text) != CUDA_SUCCESS)
    Text = nullptr;
  std::string Message(What);
  Message += ": ";
  if (Name)
    Message += Name;
  else if (Code == CUDA_ERROR_STUB_LIBRARY) // the stub cannot name its error
    Message += "CUDA_ERROR_STUB_LIBRARY";
  else if (Code == CUDA_ERROR_DEINITIALIZED) // nor a driver that shut down
    Message += "CUDA_ERROR_DEINITIALIZED";
  else
    Message += "CUresult " + std::to_string(static_cast<int>(Code));
  if (Code == CUDA_ERROR_DEINITIALIZED)
    Message += " (the CUDA driver has shut down: the process is exiting, and "
               "this runs after the driver's own clean-up, as a destructor of "
               "a static made before the process first used the GPU does)";
  else if (Text)
    Message += std::string(" (") + Text + ")";
  else if (Code == CUDA_ERROR_STUB_LIBRARY)
    Message += " (libcuda.so.1 is the toolkit's stub, not a driver)";
  return Message;
}

std::string versionText(int Version) {
  return std::to_string(Version / 1000) + "." +
         std::to_string(Version % 1000 / 10);
}

// The ".version X.Y" directive of a PTX module, or "" if there is none.
std::string ptxVersion(const std::string &Ptx) {
  size_t At = Ptx.find(".version");
  if (At == std::string::npos)
    return "";
  At += std::strlen(".version");
  while (At < Ptx.size() && (Ptx[At] == ' ' || Ptx[At] == '\t'))
    ++At;
  size_t End = At;
  while (End < Ptx.size() &&
         (Ptx[End] == '.' || (Ptx[End] >= '0' && Ptx[End] <= '9')))
    ++End;
  return Ptx.substr(At, End - At);
}

// Whether the PTX's target says "debug" (".target sm_90, debug"): NVPTX
// writes it for full debug information (a unit built with -g at -O0).
bool ptxIsForDebugger(const std::string &Ptx) {
  size_t At = Ptx.find(".target");
  if (At == std::string::npos)
    return false;
  size_t End = Ptx.find('\n', At);
  return Ptx.substr(At, End - At).find(", debug") != std::string::npos;
}

// The driver JIT's options that collect its error and information logs. The
// option arrays and buffers stay put for the object's lifetime.
class JitLogBuffers {
public:
  static constexpr unsigned LogBytes = 64 * 1024;

  JitLogBuffers() : ErrorLog(LogBytes, '\0'), InfoLog(LogBytes, '\0') {
    add(CU_JIT_ERROR_LOG_BUFFER, ErrorLog.data());
    add(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, sizeValue(LogBytes));
    add(CU_JIT_INFO_LOG_BUFFER, InfoLog.data());
    add(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, sizeValue(LogBytes));
  }
  JitLogBuffers(const JitLogBuffers &) = delete;
  JitLogBuffers &operator=(const JitLogBuffers &) = delete;

  // Only before the arrays are handed to the driver.
  void add(CUjit_option Option, void *Value) {
    Options.push_back(Option);
    Values.push_back(Value);
  }
  static void *sizeValue(unsigned Value) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(Value));
  }

  unsigned count() const { return static_cast<unsigned>(Options.size()); }
  CUjit_option *options() { return Options.data(); }
  void **values() { return Values.data(); }

  std::string errorLog() const { return text(ErrorLog); }
  std::string infoLog() const { return text(InfoLog); }

  // Appends the error log (or, if that is empty, the information log) to
  // Message on a line of its own.
  void appendLog(std::string &Message) const {
    std::string Log = errorLog();
    if (Log.empty())
      Log = infoLog();
    if (!Log.empty())
      Message += "\n" + Log;
  }

private:
  static std::string text(const std::vector<char> &Buffer) {
    std::string Text(Buffer.data(), strnlen(Buffer.data(), Buffer.size()));
    while (!Text.empty() && (Text.back() == '\n' || Text.back() == ' '))
      Text.pop_back();
    return Text;
  }

  std::vector<char> ErrorLog, InfoLog;
  std::vector<CUjit_option> Options;
  std::vector<void *> Values;
};

std::vector<CudaDriver *> *TheDevices = nullptr;
unsigned TheDefault = 0;
std::string *TheReason = nullptr;
bool TheSettingRefused = false;

std::string deviceCountText(size_t Count) {
  return Count == 1 ? "is 1 CUDA device"
                    : "are " + std::to_string(Count) + " CUDA devices";
}

} // namespace

Error mstage::rt::cudaFailure(CUresult Code, std::string Message) {
  return make_error<RuntimeFailure>(
      std::move(Message), Code == CUDA_SUCCESS ? CUDA_ERROR_UNKNOWN : Code);
}

CudaDriver *CudaDriver::get() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    // Never destroyed: kernels may still be running at exit, and the driver
    // tears itself down.
    TheReason = new std::string;
    auto *Devices = new std::vector<CudaDriver *>;
    if (create(*Devices, TheDefault, *TheReason))
      TheDevices = Devices;
  });
  return TheDevices ? (*TheDevices)[TheDefault] : nullptr;
}

unsigned CudaDriver::count() {
  get();
  return TheDevices ? unsigned(TheDevices->size()) : 0;
}

CudaDriver *CudaDriver::at(unsigned Index) {
  get();
  return TheDevices && Index < TheDevices->size() ? (*TheDevices)[Index]
                                                  : nullptr;
}

const std::string &CudaDriver::whyUnavailable() {
  get();
  return *TheReason;
}

bool CudaDriver::refusedBySetting() {
  get();
  return TheSettingRefused;
}

bool CudaDriver::create(std::vector<CudaDriver *> &Devices, unsigned &Default,
                        std::string &Why) {
  // The library stays loaded for the life of the process, even on failure:
  // once cuInit has run, unloading the driver is not safe.
  void *Library = dlopen(DriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!Library) {
    const char *Error = dlerror();
    Why = std::string("cannot load the CUDA driver (") +
          (Error ? Error : DriverLibrary) + ")";
    return false;
  }

  static Entries Fn;
  std::string Missing = Fn.resolve(Library);
  if (!Missing.empty()) {
    Why = DriverLibrary;
    int Version = 0;
    if (Fn.cuDriverGetVersion &&
        Fn.cuDriverGetVersion(&Version) == CUDA_SUCCESS)
      Why += " (driver " + versionText(Version) + ")";
    Why += " does not export " + Missing;
    return false;
  }

  auto Fail = [&](CUresult Code, std::string_view What) {
    Why = formatError(Fn, Code, What);
    return false;
  };

  if (CUresult R = Fn.cuInit(0); R != CUDA_SUCCESS)
    return Fail(R, "cuInit");
  int Version = 0;
  if (CUresult R = Fn.cuDriverGetVersion(&Version); R != CUDA_SUCCESS)
    return Fail(R, "cuDriverGetVersion");
  int Count = 0;
  if (CUresult R = Fn.cuDeviceGetCount(&Count); R != CUDA_SUCCESS)
    return Fail(R, "cuDeviceGetCount");
  if (Count <= 0) {
    Why = "no CUDA device (the driver reports none)";
    return false;
  }
  // CUDA_VISIBLE_DEVICES is the driver's: Count is already what it leaves.
  if (!visibleDevicesSetting().Error.empty()) {
    Why = visibleDevicesSetting().Error;
    return false;
  }
  std::vector<int> Ordinals = visibleDevicesSetting().Ordinals;
  for (int O : Ordinals)
    if (O >= Count) {
      TheSettingRefused = true;
      Why = "MSTAGE_VISIBLE_DEVICES='" + visibleDevicesSetting().Text + "'" +
            " names device " + std::to_string(O) + ", but there " +
            deviceCountText(Count);
      return false;
    }
  bool Filtered = !Ordinals.empty();
  if (Ordinals.empty())
    for (int O = 0; O < Count && O < int(MaxDevices); ++O)
      Ordinals.push_back(O);
  if (!deviceSetting().Error.empty()) {
    TheSettingRefused = true;
    Why = deviceSetting().Error;
    return false;
  }
  int Requested = deviceSetting().Index;
  if (Requested >= int(Ordinals.size())) {
    TheSettingRefused = true;
    Why = "MSTAGE_DEVICE=" + std::to_string(Requested) + " names device " +
          std::to_string(Requested) + ", but there " +
          deviceCountText(Ordinals.size()) +
          (Filtered ? " in MSTAGE_VISIBLE_DEVICES='" +
                          visibleDevicesSetting().Text + "'"
                    : "");
    return false;
  }
  for (unsigned I = 0; I < Ordinals.size(); ++I) {
    CudaDriver *D = describe(Fn, I, Ordinals[I], Version, Why);
    if (!D) {
      for (CudaDriver *Made : Devices)
        delete Made;
      Devices.clear();
      return false;
    }
    Devices.push_back(D);
  }
  Default = unsigned(Requested);
  // The default device's context is made now, as before there were several:
  // its failure is the back end's.
  if (Error E = Devices[Default]->bindThread()) {
    Why = failureMessage(std::move(E));
    for (CudaDriver *Made : Devices)
      delete Made;
    Devices.clear();
    return false;
  }
  return true;
}

// The properties of CUDA device Ordinal, visible as device Index.
CudaDriver *CudaDriver::describe(const Entries &Fn, unsigned Index, int Ordinal,
                                 int Version, std::string &Why) {
  auto Fail = [&](CUresult Code, std::string_view What) -> CudaDriver * {
    Why = formatError(Fn, Code, What);
    return nullptr;
  };
  std::unique_ptr<CudaDriver> D(new CudaDriver(Fn));
  D->Index = Index;
  D->Ordinal = Ordinal;
  D->DriverVersion = Version;
  if (CUresult R = Fn.cuDeviceGet(&D->Device, Ordinal); R != CUDA_SUCCESS)
    return Fail(R, "cuDeviceGet(" + std::to_string(Ordinal) + ")");

  char Name[256] = {};
  if (CUresult R = Fn.cuDeviceGetName(Name, sizeof(Name) - 1, D->Device);
      R != CUDA_SUCCESS)
    return Fail(R, "cuDeviceGetName");
  D->DeviceName = Name;
  if (CUresult R = Fn.cuDeviceTotalMem(&D->TotalMemory, D->Device);
      R != CUDA_SUCCESS)
    return Fail(R, "cuDeviceTotalMem");
  char Bus[64] = {};
  if (Fn.cuDeviceGetPCIBusId(Bus, sizeof(Bus) - 1, D->Device) == CUDA_SUCCESS)
    D->PciBusId = Bus;
  struct {
    CUdevice_attribute Attribute;
    const char *What;
    int *Value;
  } Attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)", &D->CcMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)", &D->CcMinor},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "cuDeviceGetAttribute(MAX_THREADS_PER_BLOCK)", &D->MaxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK)",
       &D->MaxSharedPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)",
       &D->MaxSharedPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
       "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", &D->MultiprocessorCount},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
       "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)",
       &D->MaxSharedPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
       "cuDeviceGetAttribute(MAX_THREADS_PER_MULTIPROCESSOR)",
       &D->MaxThreadsPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, "cuDeviceGetAttribute(WARP_SIZE)",
       &D->WarpSize},
      {CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
       "cuDeviceGetAttribute(PAGEABLE_MEMORY_ACCESS)",
       &D->PageableMemoryAccess},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
       "cuDeviceGetAttribute(MAX_BLOCK_DIM_X)", &D->MaxBlockDim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
       "cuDeviceGetAttribute(MAX_BLOCK_DIM_Y)", &D->MaxBlockDim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
       "cuDeviceGetAttribute(MAX_BLOCK_DIM_Z)", &D->MaxBlockDim[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
       "cuDeviceGetAttribute(MAX_GRID_DIM_X)", &D->MaxGridDim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
       "cuDeviceGetAttribute(MAX_GRID_DIM_Y)", &D->MaxGridDim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
       "cuDeviceGetAttribute(MAX_GRID_DIM_Z)", &D->MaxGridDim[2]},
  };
  for (const auto &A : Attributes)
    if (CUresult R = Fn.cuDeviceGetAttribute(A.Value, A.Attribute, D->Device);
        R != CUDA_SUCCESS)
      return Fail(R, A.What);

  return D.release();
}

// The primary context is the one the CUDA runtime uses too, and any thread
// may make it current. It is retained for the life of the process, on the
// device's first use.
Error CudaDriver::retainContext() {
  std::call_once(ContextOnce, [this] {
    ContextError = Fn.cuDevicePrimaryCtxRetain(&Context, Device);
    if (ContextError != CUDA_SUCCESS)
      Context = nullptr;
    else
      Used.store(true, std::memory_order_release);
  });
  if (ContextError != CUDA_SUCCESS)
    return check(ContextError, "cuDevicePrimaryCtxRetain(" + shortName() + ")");
  return Error::success();
}

std::string CudaDriver::arch() const {
  return "sm_" + std::to_string(CcMajor * 10 + CcMinor);
}

std::string CudaDriver::description() const {
  return DeviceName + " (" + arch() + "), device " + std::to_string(Ordinal) +
         ", driver " + versionText(DriverVersion);
}

std::string CudaDriver::shortName() const {
  return "device " + std::to_string(Index) + " (" + DeviceName + ")";
}

std::string CudaDriver::errorText(CUresult Code, std::string_view What) const {
  return formatError(Fn, Code, What);
}

Error CudaDriver::check(CUresult Code, std::string_view What) const {
  if (Code == CUDA_SUCCESS)
    return Error::success();
  return cudaFailure(Code, errorText(Code, What));
}

Error CudaDriver::bindThread() {
  if (Error E = retainContext())
    return E;
  CUcontext Current = nullptr;
  if (CUresult R = Fn.cuCtxGetCurrent(&Current); R != CUDA_SUCCESS)
    return check(R, "cuCtxGetCurrent");
  if (Current == Context)
    return Error::success();
  return check(Fn.cuCtxSetCurrent(Context), "cuCtxSetCurrent");
}

Error CudaDriver::alloc(size_t Bytes, CUdeviceptr *Ptr) {
  *Ptr = 0;
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemAlloc(Ptr, Bytes),
               "cuMemAlloc(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::free(CUdeviceptr Ptr) {
  if (Ptr == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemFree(Ptr), "cuMemFree");
}

Error CudaDriver::copyToDevice(CUdeviceptr Dst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemcpyHtoD(Dst, Src, Bytes),
               "cuMemcpyHtoD(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::copyToHost(void *Dst, CUdeviceptr Src, size_t Bytes) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemcpyDtoH(Dst, Src, Bytes),
               "cuMemcpyDtoH(" + std::to_string(Bytes) + " bytes)");
}

// cuModuleLoadDataEx of a PTX text (JIT-compiled) or a cubin image; What
// names it in the error, which carries the JIT's log.
Error CudaDriver::loadImage(const void *Image, const std::string &What,
                            const std::string *Ptx, CUmodule *Module,
                            std::string *InfoLog, int OptLevel) {
  *Module = nullptr;
  if (Error E = bindThread())
    return E;
  JitLogBuffers Options;
  // The PTX's .loc lines reach the cubin, as ptxas keeps them (nvcc
  // -lineinfo): the tools then name source lines.
  if (Ptx)
    Options.add(CU_JIT_GENERATE_LINE_INFO, JitLogBuffers::sizeValue(1));
  // A unit built with -g at -O0: debuggable code, as ptxas -g makes of it.
  if (Ptx && ptxIsForDebugger(*Ptx)) {
    Options.add(CU_JIT_GENERATE_DEBUG_INFO, JitLogBuffers::sizeValue(1));
    OptLevel = 0;
  }
  if (Ptx && OptLevel >= 0)
    Options.add(CU_JIT_OPTIMIZATION_LEVEL,
                JitLogBuffers::sizeValue(unsigned(OptLevel)));
  CUresult R = Fn.cuModuleLoadDataEx(Module, Image, Options.count(),
                                     Options.options(), Options.values());
  if (R != CUDA_SUCCESS) {
    std::string Message =
        errorText(R, "cuModuleLoadDataEx (" + What + " for " + arch() + ")");
    if (Ptx && R == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      Message += "; the PTX is .version " + ptxVersion(*Ptx) + " and driver " +
                 versionText(DriverVersion) + " is too old for it";
    Options.appendLog(Message);
    *Module = nullptr;
    return cudaFailure(R, std::move(Message));
  }
  if (InfoLog)
    *InfoLog = Options.infoLog();
  return Error::success();
}

Error CudaDriver::loadModuleFromPtx(const std::string &Ptx, CUmodule *Module,
                                    std::string *InfoLog, int OptLevel) {
  return loadImage(Ptx.c_str(), "JIT-compiling PTX", &Ptx, Module, InfoLog,
                   OptLevel);
}

Error CudaDriver::loadModuleFromCubin(const std::string &Cubin,
                                      CUmodule *Module) {
  return loadImage(Cubin.data(), "loading a cubin", nullptr, Module, nullptr);
}

Error CudaDriver::getFunction(CUmodule Module, const std::string &Name,
                              CUfunction *Function) {
  *Function = nullptr;
  if (Error E = bindThread())
    return E;
  CUresult R = Fn.cuModuleGetFunction(Function, Module, Name.c_str());
  if (R != CUDA_SUCCESS) {
    *Function = nullptr;
    return check(R, "cuModuleGetFunction(\"" + Name + "\")");
  }
  return Error::success();
}

Error CudaDriver::setLimit(CUlimit L, size_t Value) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuCtxSetLimit(L, Value), "cuCtxSetLimit");
}

Error CudaDriver::getLimit(CUlimit L, size_t *Value) {
  *Value = 0;
  if (Error E = bindThread())
    return E;
  return check(Fn.cuCtxGetLimit(Value, L), "cuCtxGetLimit");
}

Error CudaDriver::getGlobal(CUmodule Module, const std::string &Name,
                            CUdeviceptr *Ptr, size_t *Bytes) {
  *Ptr = 0;
  *Bytes = 0;
  if (Error E = bindThread())
    return E;
  CUresult R = Fn.cuModuleGetGlobal(Ptr, Bytes, Module, Name.c_str());
  if (R == CUDA_ERROR_NOT_FOUND) {
    *Ptr = 0;
    return Error::success();
  }
  return check(R, "cuModuleGetGlobal(\"" + Name + "\")");
}

bool CudaDriver::pointerRange(CUdeviceptr Ptr, CUdeviceptr *Start,
                              size_t *Size) {
  if (!succeeded(bindThread()))
    return false;
  CUpointer_attribute Attributes[] = {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                      CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  void *Values[] = {Start, Size};
  *Start = 0;
  *Size = 0;
  // A pointer the driver does not know is an error, or a range of 0.
  return Fn.cuPointerGetAttributes(2, Attributes, Values, Ptr) ==
             CUDA_SUCCESS &&
         *Start != 0 && *Size != 0;
}

Error CudaDriver::unloadModule(CUmodule Module) {
  if (!Module)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuModuleUnload(Module), "cuModuleUnload");
}

// Raises Function's dynamic shared memory limit to Dynamic bytes where the
// launch needs it: static and dynamic shared memory together past 48 KiB.
// Only then: a raised limit may make the driver give the kernel a larger
// shared-memory carveout and its loads a smaller L1 cache (suspected of
// issue 34's xs lookups, 1.13x nvcc's time while every kernel with a
// shared_array had it raised at load; tools/gpu/xs-probe.sh tells).
Error CudaDriver::allowDynamicShared(CUfunction Function, uint32_t Dynamic) {
  if (Dynamic == 0)
    return Error::success();
  int Static = 0;
  if (Dynamic <= DefaultSharedLimit &&
      Fn.cuFuncGetAttribute(&Static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                            Function) == CUDA_SUCCESS &&
      uint64_t(Static) + Dynamic <= DefaultSharedLimit)
    return Error::success();
  // The limit covers dynamic shared memory only; the driver rejects values
  // above the opt-in maximum less the kernel's static shared memory.
  int Limit = Dynamic > 0x7fffffffu ? 0x7fffffff : static_cast<int>(Dynamic);
  CUresult R = Fn.cuFuncSetAttribute(
      Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, Limit);
  if (R == CUDA_SUCCESS)
    return Error::success();
  return cudaFailure(
      R, errorText(R, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                          std::to_string(Dynamic) + " bytes)") +
             "; " + DeviceName + " allows at most " +
             std::to_string(MaxSharedPerBlockOptin) +
             " bytes of shared memory per block");
}

Error CudaDriver::occupancy(CUfunction Function, int BlockSize,
                            uint32_t SharedBytes, int *Blocks) {
  if (Error E = bindThread())
    return E;
  // As launch(): the function's limit is raised first, else the driver
  // counts no block past 48 KiB.
  if (Error E = allowDynamicShared(Function, SharedBytes))
    return E;
  return check(Fn.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   Blocks, Function, BlockSize, SharedBytes),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor");
}

Error CudaDriver::functionAttribute(CUfunction Function,
                                    CUfunction_attribute Attribute,
                                    int *Value) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuFuncGetAttribute(Value, Attribute, Function),
               "cuFuncGetAttribute(" + std::to_string(int(Attribute)) + ")");
}

Error CudaDriver::setFunctionAttribute(CUfunction Function,
                                       CUfunction_attribute Attribute,
                                       int Value) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuFuncSetAttribute(Function, Attribute, Value),
               "cuFuncSetAttribute(" + std::to_string(int(Attribute)) + ", " +
                   std::to_string(Value) + ")");
}

// A grid barrier waits for every block, so a cooperative launch must fit on
// the device at once: the driver would refuse it with
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, which says neither how many blocks
// fit nor why.
static Error cooperativeFits(CudaDriver &D, CUfunction Function,
                             const uint32_t Grid[3], const uint32_t Block[3],
                             uint32_t SharedBytes) {
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  uint64_t Blocks = uint64_t(Grid[0]) * Grid[1] * Grid[2];
  int PerMultiprocessor = 0;
  if (Error E =
          D.occupancy(Function, int(Threads), SharedBytes, &PerMultiprocessor))
    return E;
  uint64_t Fit = uint64_t(PerMultiprocessor) * D.multiprocessorCount();
  if (Blocks <= Fit)
    return Error::success();
  return failure(
      "synchronizes its grid (this_grid().sync()), so all its blocks must be "
      "resident at once, but " +
          D.deviceName() + " holds at most " + std::to_string(Fit) +
          " blocks of " + std::to_string(Threads) + " threads with " +
          std::to_string(SharedBytes) + " bytes of dynamic shared memory (" +
          std::to_string(PerMultiprocessor) + " per multiprocessor, " +
          std::to_string(D.multiprocessorCount()) +
          " multiprocessors), and the grid has " + std::to_string(Blocks) +
          "; launch at most " + std::to_string(Fit) +
          " blocks and loop over the work (a grid-stride loop)",
      RuntimeFailure::Join::Clause);
}

Error CudaDriver::launch(CUfunction Function, const uint32_t Grid[3],
                         const uint32_t Block[3], uint32_t SharedBytes,
                         void **Params, CUstream Stream, float *ElapsedMs,
                         LaunchKind Kind) {
  if (Error E = bindThread())
    return E;
  bool Cooperative = Kind == LaunchKind::Cooperative;
  if (Cooperative)
    if (Error E = cooperativeFits(*this, Function, Grid, Block, SharedBytes))
      return E;

  // Made only on the error paths: a launch allocates nothing.
  auto Shared = [SharedBytes] {
    return std::to_string(SharedBytes) + " bytes";
  };
  if (Error E = allowDynamicShared(Function, SharedBytes))
    return E;

  CUevent Events[2] = {nullptr, nullptr};
  if (ElapsedMs)
    for (CUevent &E : Events)
      if (CUresult ER = Fn.cuEventCreate(&E, CU_EVENT_DEFAULT))
        return cudaFailure(ER, errorText(ER, "cuEventCreate"));
  if (ElapsedMs)
    Fn.cuEventRecord(Events[0], Stream);
  CUresult R;
  if (Kind == LaunchKind::Programmatic) {
    CUlaunchAttribute Overlap{};
    Overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    Overlap.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig Config{Grid[0],  Grid[1],     Grid[2], Block[0], Block[1],
                          Block[2], SharedBytes, Stream,  &Overlap, 1};
    R = Fn.cuLaunchKernelEx(&Config, Function, Params, /*extra=*/nullptr);
  } else if (Cooperative) {
    R = Fn.cuLaunchCooperativeKernel(Function, Grid[0], Grid[1], Grid[2],
                                     Block[0], Block[1], Block[2], SharedBytes,
                                     Stream, Params);
  } else {
    R = Fn.cuLaunchKernel(Function, Grid[0], Grid[1], Grid[2], Block[0],
                          Block[1], Block[2], SharedBytes, Stream, Params,
                          /*extra=*/nullptr);
  }
  if (ElapsedMs) {
    CUresult ER = Fn.cuEventRecord(Events[1], Stream);
    if (ER == CUDA_SUCCESS)
      ER = Fn.cuEventSynchronize(Events[1]);
    if (ER == CUDA_SUCCESS)
      ER = Fn.cuEventElapsedTime(ElapsedMs, Events[0], Events[1]);
    for (CUevent E : Events)
      Fn.cuEventDestroy(E);
    if (R == CUDA_SUCCESS && ER != CUDA_SUCCESS)
      return cudaFailure(ER, errorText(ER, "timing the launch"));
  }
  if (R == CUDA_SUCCESS)
    return Error::success();

  auto Dims = [](const uint32_t D[3]) {
    return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
           std::to_string(D[2]);
  };
  std::string Message = errorText(
      R, std::string(Cooperative ? "cuLaunchCooperativeKernel"
                     : Kind == LaunchKind::Programmatic ? "cuLaunchKernelEx"
                                                        : "cuLaunchKernel") +
             "(grid " + Dims(Grid) + ", block " + Dims(Block) + ", " +
             Shared() + " of shared memory)");
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  if (Threads > static_cast<uint64_t>(MaxThreadsPerBlock))
    Message += "; a block of " + std::to_string(Threads) +
               " threads exceeds the limit of " +
               std::to_string(MaxThreadsPerBlock) + " on " + DeviceName;
  else if (SharedBytes > static_cast<uint32_t>(MaxSharedPerBlockOptin))
    Message += "; " + DeviceName + " allows at most " +
               std::to_string(MaxSharedPerBlockOptin) +
               " bytes of shared memory per block";
  else if (R == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    Message += "; a block of " + std::to_string(Threads) +
               " threads needs more registers than a multiprocessor has";
  return cudaFailure(R, std::move(Message));
}

Error CudaDriver::synchronize() {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuCtxSynchronize(), "cuCtxSynchronize");
}

Error CudaDriver::createStream(CUstream *Stream) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamCreate(Stream, CU_STREAM_NON_BLOCKING),
               "cuStreamCreate");
}

Error CudaDriver::destroyStream(CUstream Stream) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamDestroy(Stream), "cuStreamDestroy");
}

Error CudaDriver::synchronizeStream(CUstream Stream) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamSynchronize(Stream), "cuStreamSynchronize");
}

Error CudaDriver::waitEvent(CUstream Stream, CUevent Event) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamWaitEvent(Stream, Event, 0), "cuStreamWaitEvent");
}

Error CudaDriver::createEvent(CUevent *Event, bool Timing) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuEventCreate(Event, Timing ? CU_EVENT_DEFAULT
                                              : CU_EVENT_DISABLE_TIMING),
               "cuEventCreate");
}

Error CudaDriver::destroyEvent(CUevent Event) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuEventDestroy(Event), "cuEventDestroy");
}

Error CudaDriver::recordEvent(CUevent Event, CUstream Stream) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuEventRecord(Event, Stream), "cuEventRecord");
}

Error CudaDriver::synchronizeEvent(CUevent Event) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuEventSynchronize(Event), "cuEventSynchronize");
}

CUresult CudaDriver::queryEvent(CUevent Event) {
  if (Error E = bindThread()) {
    CUresult Code = cudaErrorCode(E);
    consumeError(std::move(E));
    return Code;
  }
  return Fn.cuEventQuery(Event);
}

Error CudaDriver::elapsedMs(float *Ms, CUevent Start, CUevent End) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuEventElapsedTime(Ms, Start, End), "cuEventElapsedTime");
}

Error CudaDriver::makePool() {
  if (Error E = bindThread())
    return E;
  CUmemoryPool P;
  return memoryPool(&P);
}

Error CudaDriver::memoryPool(CUmemoryPool *Out) {
  std::call_once(PoolOnce, [this] {
    CUmemPoolProps Props = {};
    Props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    Props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    Props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    Props.location.id = Ordinal;
    CUresult R = Fn.cuMemPoolCreate(&Pool, &Props);
    if (R != CUDA_SUCCESS) {
      PoolError = errorText(R, "cuMemPoolCreate");
      Pool = nullptr;
      return;
    }
    // Keep what is freed: allocating in a loop then costs no driver call
    // into the OS. Out of memory, allocAsync trims the pool.
    cuuint64_t Keep = ~cuuint64_t(0);
    Fn.cuMemPoolSetAttribute(Pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &Keep);
  });
  *Out = Pool;
  if (!Pool)
    return cudaFailure(CUDA_ERROR_UNKNOWN, PoolError);
  return Error::success();
}

Error CudaDriver::allocAsync(size_t Bytes, CUstream Stream, CUdeviceptr *Ptr) {
  *Ptr = 0;
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  CUmemoryPool P;
  if (Error E = memoryPool(&P))
    return E;
  CUresult R = Fn.cuMemAllocFromPoolAsync(Ptr, Bytes, P, Stream);
  if (R == CUDA_ERROR_OUT_OF_MEMORY) {
    // Give back what the pool holds once earlier frees are done, and retry.
    if (Fn.cuCtxSynchronize() == CUDA_SUCCESS &&
        Fn.cuMemPoolTrimTo(P, 0) == CUDA_SUCCESS)
      R = Fn.cuMemAllocFromPoolAsync(Ptr, Bytes, P, Stream);
  }
  if (R != CUDA_SUCCESS)
    *Ptr = 0;
  return check(R,
               "cuMemAllocFromPoolAsync(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::freeAsync(CUdeviceptr Ptr, CUstream Stream) {
  if (Ptr == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemFreeAsync(Ptr, Stream), "cuMemFreeAsync");
}

Error CudaDriver::copyToDeviceAsync(CUdeviceptr Dst, const void *Src,
                                    size_t Bytes, CUstream Stream) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemcpyHtoDAsync(Dst, Src, Bytes, Stream),
               "cuMemcpyHtoDAsync(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::copyToHostAsync(void *Dst, CUdeviceptr Src, size_t Bytes,
                                  CUstream Stream) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemcpyDtoHAsync(Dst, Src, Bytes, Stream),
               "cuMemcpyDtoHAsync(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::copyDeviceAsync(CUdeviceptr Dst, CUdeviceptr Src,
                                  size_t Bytes, CUstream Stream) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemcpyDtoDAsync(Dst, Src, Bytes, Stream),
               "cuMemcpyDtoDAsync(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::fillAsync(CUdeviceptr Dst, const void *Pattern,
                            size_t ElementBytes, size_t Count,
                            CUstream Stream) {
  if (Count == 0 || ElementBytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  // The widest memset unit that divides the element: one memset when the
  // element is one unit, else a 2-D memset per unit of the element, its
  // rows the elements. Nothing refers to host memory, so captures hold.
  unsigned Unit = ElementBytes % 4 == 0 ? 4 : ElementBytes % 2 == 0 ? 2 : 1;
  const auto *Bytes = static_cast<const unsigned char *>(Pattern);
  for (size_t At = 0; At < ElementBytes; At += Unit) {
    uint32_t V = 0;
    std::memcpy(&V, Bytes + At, Unit);
    CUdeviceptr P = Dst + At;
    CUresult R;
    if (ElementBytes == Unit)
      R = Unit == 4   ? Fn.cuMemsetD32Async(P, V, Count, Stream)
          : Unit == 2 ? Fn.cuMemsetD16Async(P, uint16_t(V), Count, Stream)
                      : Fn.cuMemsetD8Async(P, uint8_t(V), Count, Stream);
    else
      R = Unit == 4
              ? Fn.cuMemsetD2D32Async(P, ElementBytes, V, 1, Count, Stream)
          : Unit == 2 ? Fn.cuMemsetD2D16Async(P, ElementBytes, uint16_t(V), 1,
                                              Count, Stream)
                      : Fn.cuMemsetD2D8Async(P, ElementBytes, uint8_t(V), 1,
                                             Count, Stream);
    if (R != CUDA_SUCCESS)
      return check(R, "cuMemset (" + std::to_string(Count) + " elements of " +
                          std::to_string(ElementBytes) + " bytes)");
  }
  return Error::success();
}

Error CudaDriver::allocHost(size_t Bytes, void **Ptr) {
  *Ptr = nullptr;
  if (Error E = bindThread())
    return E;
  // Portable: any context may copy from it by DMA.
  return check(
      Fn.cuMemHostAlloc(Ptr, Bytes ? Bytes : 1, CU_MEMHOSTALLOC_PORTABLE),
      "cuMemHostAlloc(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::freeHost(void *Ptr) {
  if (!Ptr)
    return Error::success();
  if (Error E = bindThread())
    return E;
  return check(Fn.cuMemFreeHost(Ptr), "cuMemFreeHost");
}

Error CudaDriver::allocManaged(size_t Bytes, CUdeviceptr *Ptr) {
  *Ptr = 0;
  if (Error E = bindThread())
    return E;
  return check(
      Fn.cuMemAllocManaged(Ptr, Bytes ? Bytes : 1, CU_MEM_ATTACH_GLOBAL),
      "cuMemAllocManaged(" + std::to_string(Bytes) + " bytes)");
}

Error CudaDriver::prefetch(CUdeviceptr Ptr, size_t Bytes, bool ToDevice,
                           CUstream Stream) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  CUmemLocation Where = {};
  Where.type =
      ToDevice ? CU_MEM_LOCATION_TYPE_DEVICE : CU_MEM_LOCATION_TYPE_HOST;
  Where.id = ToDevice ? Ordinal : 0;
  return check(Fn.cuMemPrefetchAsync(Ptr, Bytes, Where, 0, Stream),
               "cuMemPrefetchAsync");
}

Error CudaDriver::beginCapture(CUstream Stream) {
  if (Error E = bindThread())
    return E;
  return check(
      Fn.cuStreamBeginCapture(Stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
      "cuStreamBeginCapture");
}

Error CudaDriver::endCapture(CUstream Stream, CUgraph *Graph) {
  *Graph = nullptr;
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamEndCapture(Stream, Graph), "cuStreamEndCapture");
}

Error CudaDriver::captureDependencies(
    CUstream Stream, llvm::SmallVectorImpl<CUgraphNode> &Nodes) {
  Nodes.clear();
  if (Error E = bindThread())
    return E;
  CUstreamCaptureStatus Status;
  const CUgraphNode *Deps = nullptr;
  const CUgraphEdgeData *Edges = nullptr; // else a programmatic edge is lossy
  size_t Count = 0;
  if (Error E = check(Fn.cuStreamGetCaptureInfo(Stream, &Status, nullptr,
                                                nullptr, &Deps, &Edges, &Count),
                      "cuStreamGetCaptureInfo"))
    return E;
  if (Status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cuStreamGetCaptureInfo: the stream's "
                                   "capture is not active");
  Nodes.append(Deps, Deps + Count);
  return Error::success();
}

Error CudaDriver::setCaptureDependencies(CUstream Stream,
                                         ArrayRef<CUgraphNode> Nodes) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuStreamUpdateCaptureDependencies(
                   Stream, const_cast<CUgraphNode *>(Nodes.data()), nullptr,
                   Nodes.size(), CU_STREAM_SET_CAPTURE_DEPENDENCIES),
               "cuStreamUpdateCaptureDependencies");
}

CUstreamCaptureMode CudaDriver::relaxCapture(CUstreamCaptureMode Mode) {
  Fn.cuThreadExchangeStreamCaptureMode(&Mode);
  return Mode;
}

Error CudaDriver::instantiate(CUgraph Graph, CUgraphExec *Exec) {
  *Exec = nullptr;
  if (Error E = bindThread())
    return E;
  return check(Fn.cuGraphInstantiateWithFlags(Exec, Graph, 0),
               "cuGraphInstantiateWithFlags");
}

Error CudaDriver::launchGraph(CUgraphExec Exec, CUstream Stream) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuGraphLaunch(Exec, Stream), "cuGraphLaunch");
}

void CudaDriver::destroyGraph(CUgraph Graph, CUgraphExec Exec) {
  if (!succeeded(bindThread()))
    return;
  if (Exec)
    Fn.cuGraphExecDestroy(Exec);
  if (Graph)
    Fn.cuGraphDestroy(Graph);
}

Error CudaDriver::createGraph(CUgraph *Graph) {
  *Graph = nullptr;
  if (Error E = bindThread())
    return E;
  return check(Fn.cuGraphCreate(Graph, 0), "cuGraphCreate");
}

Error CudaDriver::addChildNode(CUgraph Graph, ArrayRef<CUgraphNode> Deps,
                               CUgraph Child, CUgraphNode *Node) {
  if (Error E = bindThread())
    return E;
  if (!Child)
    return check(Fn.cuGraphAddEmptyNode(Node, Graph, Deps.data(), Deps.size()),
                 "cuGraphAddEmptyNode");
  return check(
      Fn.cuGraphAddChildGraphNode(Node, Graph, Deps.data(), Deps.size(), Child),
      "cuGraphAddChildGraphNode");
}

Error CudaDriver::addHostNode(CUgraph Graph, ArrayRef<CUgraphNode> Deps,
                              CUhostFn HostFn, void *Data, CUgraphNode *Node) {
  if (Error E = bindThread())
    return E;
  CUDA_HOST_NODE_PARAMS Params = {HostFn, Data};
  return check(
      Fn.cuGraphAddHostNode(Node, Graph, Deps.data(), Deps.size(), &Params),
      "cuGraphAddHostNode");
}

Error CudaDriver::addKernelNode(CUgraph Graph, ArrayRef<CUgraphNode> Deps,
                                const CUDA_KERNEL_NODE_PARAMS &Params,
                                CUgraphNode Like, CUgraphNode *Node) {
  if (Error E = bindThread())
    return E;
  if (Error E = check(Fn.cuGraphAddKernelNode(Node, Graph, Deps.data(),
                                              Deps.size(), &Params),
                      "cuGraphAddKernelNode"))
    return E;
  return check(Fn.cuGraphKernelNodeCopyAttributes(*Node, Like),
               "cuGraphKernelNodeCopyAttributes");
}

Error CudaDriver::addDependency(CUgraph Graph, CUgraphNode From,
                                CUgraphNode To) {
  if (Error E = bindThread())
    return E;
  return check(Fn.cuGraphAddDependencies(Graph, &From, &To, nullptr, 1),
               "cuGraphAddDependencies");
}

Expected<CUgraphNode>
CudaDriver::onlyKernelNode(CUgraph Graph, CUDA_KERNEL_NODE_PARAMS *Params,
                           size_t *Count) {
  *Count = 0;
  if (Error E = bindThread())
    return std::move(E);
  CUgraphNode Node = nullptr;
  if (Error E =
          check(Fn.cuGraphGetNodes(Graph, nullptr, Count), "cuGraphGetNodes"))
    return std::move(E);
  if (*Count != 1)
    return nullptr;
  if (Error E =
          check(Fn.cuGraphGetNodes(Graph, &Node, Count), "cuGraphGetNodes"))
    return std::move(E);
  CUgraphNodeType Type;
  if (Error E = check(Fn.cuGraphNodeGetType(Node, &Type), "cuGraphNodeGetType"))
    return std::move(E);
  if (Type != CU_GRAPH_NODE_TYPE_KERNEL)
    return nullptr;
  if (Error E = check(Fn.cuGraphKernelNodeGetParams(Node, Params),
                      "cuGraphKernelNodeGetParams"))
    return std::move(E);
  return Node;
}

Error CudaDriver::setKernelNode(CUgraphNode Node, CUgraphExec Exec,
                                const CUDA_KERNEL_NODE_PARAMS &Params) {
  if (Error E = bindThread())
    return E;
  if (Exec)
    if (Error E = check(Fn.cuGraphExecKernelNodeSetParams(Exec, Node, &Params),
                        "cuGraphExecKernelNodeSetParams"))
      return E;
  return check(Fn.cuGraphKernelNodeSetParams(Node, &Params),
               "cuGraphKernelNodeSetParams");
}

bool CudaDriver::peerAccess(CudaDriver &Owner) {
  if (&Owner == this)
    return true;
  std::atomic<uint8_t> &State = Peer[Owner.Index];
  if (uint8_t Known = State.load(std::memory_order_acquire))
    return Known == 1;
  std::lock_guard<std::mutex> G(PeerLock);
  if (uint8_t Known = State.load(std::memory_order_acquire))
    return Known == 1;
  int Can = 0;
  bool On =
      peerAccessSetting().Value &&
      Fn.cuDeviceCanAccessPeer(&Can, Device, Owner.Device) == CUDA_SUCCESS &&
      Can;
  // Kernels here reach Owner's cuMemAlloc memory once this context has
  // peer access to Owner's, and Owner's pool memory once the pool allows
  // this device too.
  if (On && succeeded(bindThread()) && succeeded(Owner.retainContext())) {
    CUresult R = Fn.cuCtxEnablePeerAccess(Owner.Context, 0);
    On = R == CUDA_SUCCESS || R == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    CUmemoryPool OwnerPool;
    if (On && succeeded(Owner.memoryPool(&OwnerPool))) {
      CUmemAccessDesc Access = {};
      Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      Access.location.id = Ordinal;
      Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      On = Fn.cuMemPoolSetAccess(OwnerPool, &Access, 1) == CUDA_SUCCESS;
    }
  } else {
    On = false;
  }
  State.store(On ? 1 : 2, std::memory_order_release);
  return On;
}

Error CudaDriver::copyPeerAsync(CUdeviceptr Dst, CUdeviceptr Src,
                                CudaDriver &SrcDev, size_t Bytes,
                                CUstream Stream) {
  if (Bytes == 0)
    return Error::success();
  if (Error E = bindThread())
    return E;
  if (Error E = SrcDev.retainContext())
    return E;
  // Without peer access the driver stages the copy through host memory.
  peerAccess(SrcDev);
  return check(
      Fn.cuMemcpyPeerAsync(Dst, Context, Src, SrcDev.Context, Bytes, Stream),
      "cuMemcpyPeerAsync(" + std::to_string(Bytes) + " bytes from " +
          SrcDev.shortName() + " to " + shortName() + ")");
}
