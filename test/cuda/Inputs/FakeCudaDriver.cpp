//===- FakeCudaDriver.cpp - A libcuda.so.1 whose calls fail on request ----===//
//
// Lets the tests reach the runtime's CUDA-driver error paths without a GPU
// (test/cuda/driver-errors.cpp). Every entry point that the runtime binds
// succeeds (one sm_90 device, "Fake H200"; device memory is host memory;
// launches do nothing) unless FAKECUDA_FAIL names it:
//   FAKECUDA_FAIL=cuMemAlloc=2,cuLaunchKernel@2=700
// fails cuMemAlloc with CUresult 2, and cuLaunchKernel with 700 from its
// second call on. cuGetErrorName knows a few codes; cuGetErrorString says
// "text of N", except for 12345, which neither names. FAKECUDA_EVENT_MS sets
// the time between two events (a list: in turn); FAKECUDA_OCCUPANCY the
// blocks a multiprocessor runs (below); FAKECUDA_LAUNCHES=1 prints the name of each
// function launched and each attribute set on one; FAKECUDA_FUNC_ATTRIBUTES
// what cuFuncGetAttribute says; FAKECUDA_DEVICES=N reports N devices
// (default 1), all alike, sharing one memory; FAKECUDA_CALLS=1 prints every
// call (=time: with a timestamp), so that a test can count the calls a
// launch makes; FAKECUDA_PTX_LOAD_MS how long a
// load of PTX takes (the driver's JIT, which the JIT's tiers overlap);
// FAKECUDA_LOADS=1 prints each load of PTX with its
// CU_JIT_OPTIMIZATION_LEVEL and CU_JIT_GENERATE_DEBUG_INFO;
// FAKECUDA_FAULT=N: the N-th cuLaunchKernel's kernel faults at once, as a
// GPU shows it once the fault has lost the context: every later call that
// FAKECUDA_FAIL could fail says CUDA_ERROR_ILLEGAL_ADDRESS (700). As the
// driver does, cuMemPoolCreate fails while a stream is captured, and a
// thread that captures a stream (in the thread-local mode the runtime uses)
// may not query or wait for an event or a stream unless it relaxed its
// capture mode: the call fails and invalidates its captures, whose later
// launches and end fail with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED.
//
// Graphs: a launch on a captured stream is recorded, not run, with its
// parameters as they are then; a launch of the instantiated graph runs
// (prints) its launches in order. FAKECUDA_LAUNCHES=args prints, for
// kernels of three parameters after the lambda (out, in, an int), the grid,
// the block, the first 8 bytes of out and of in (their data pointers, as
// "#N+offset" in the N-th allocation) and the int, and each memset and
// copy on the device ("fakecuda: launch-free ..."); FAKECUDA_GRAPHS=1 prints
// each graph launch, and each captured graph's edges ("fakecuda: captured
// graph: 1<-0 2<-0,1 ...": each node after the ones it depends on; a
// capture's node depends on the one before it unless
// cuStreamUpdateCaptureDependencies set others). Graphs built node by node (cuGraphCreate,
// cuGraphAdd*Node) run their nodes in the order they were added, host
// nodes included; a kernel node made from a captured one's parameters, or
// updated with them, prints that one's line.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

// Set by the launch that FAKECUDA_FAULT names.
std::atomic<bool> ContextLost{false};

// The failure FAKECUDA_FAIL asks of this call of Name (or FAKECUDA_FAULT's),
// or CUDA_SUCCESS.
CUresult injected(const char *Name) {
  if (ContextLost.load())
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  static std::mutex Lock;
  static std::map<std::string, int> Calls;
  const char *Spec = std::getenv("FAKECUDA_FAIL");
  if (!Spec)
    return CUDA_SUCCESS;
  std::lock_guard<std::mutex> G(Lock);
  int Call = ++Calls[Name];
  std::string S(Spec);
  size_t At = 0;
  while (At < S.size()) {
    size_t End = S.find(',', At);
    if (End == std::string::npos)
      End = S.size();
    std::string Item = S.substr(At, End - At);
    At = End + 1;
    size_t Eq = Item.find('=');
    if (Eq == std::string::npos)
      continue;
    std::string Key = Item.substr(0, Eq);
    int From = 1;
    if (size_t AtSign = Key.find('@'); AtSign != std::string::npos) {
      From = std::atoi(Key.c_str() + AtSign + 1);
      Key = Key.substr(0, AtSign);
    }
    if (Key == Name && Call >= From)
      return CUresult(std::atoi(Item.c_str() + Eq + 1));
  }
  return CUDA_SUCCESS;
}

// FAKECUDA_CALLS=1 prints each driver call the runtime makes, =time with
// the microseconds since the first call: what a launch costs in calls.
void logCall(const char *Name) {
  static const char *Mode = std::getenv("FAKECUDA_CALLS");
  if (!Mode)
    return;
  using Clock = std::chrono::steady_clock;
  static const Clock::time_point Start = Clock::now();
  if (std::strcmp(Mode, "time") == 0)
    std::fprintf(stderr, "fakecuda: %.1f us %s\n",
                 std::chrono::duration<double, std::micro>(Clock::now() - Start)
                     .count(),
                 Name);
  else
    std::fprintf(stderr, "fakecuda: call %s\n", Name);
}

#define LOG(Name) logCall(Name)

#define FAIL(Name)                                                             \
  if (CUresult R = injected(Name))                                             \
  return R

// Device memory is host memory, aligned as the driver's is. Each allocation
// is numbered, so that a launch prints a pointer the same way in every run.
std::mutex AllocationLock;
std::vector<std::pair<unsigned long long, size_t>> Allocations;
CUdeviceptr deviceMemory(size_t Bytes) {
  size_t Size = (Bytes + 255) / 256 * 256;
  void *P = std::aligned_alloc(256, Size ? Size : 256);
  std::lock_guard<std::mutex> G(AllocationLock);
  Allocations.push_back({(unsigned long long)P, Size});
  return (CUdeviceptr)P;
}

// "#3+16": 16 bytes into the third allocation (the newest that holds it).
std::string pointerText(unsigned long long P) {
  std::lock_guard<std::mutex> G(AllocationLock);
  for (size_t I = Allocations.size(); I-- > 0;)
    if (P >= Allocations[I].first &&
        P < Allocations[I].first + Allocations[I].second)
      return "#" + std::to_string(I) + "+" +
             std::to_string(P - Allocations[I].first);
  char Text[32];
  std::snprintf(Text, sizeof Text, "%llx", P);
  return Text;
}

// Streams being captured.
int Capturing = 0;

// What a launch prints, as FAKECUDA_LAUNCHES asks; empty: nothing.
// FAKECUDA_LAUNCHES=shared: each launch's dynamic shared memory too.
std::string launchLine(CUfunction F, unsigned GX, unsigned BX, void **Params,
                       unsigned Shared = 0) {
  const char *Mode = std::getenv("FAKECUDA_LAUNCHES");
  if (!Mode)
    return "";
  std::string Line = std::string("fakecuda: launch ") + (const char *)F;
  if (std::strcmp(Mode, "shared") == 0)
    Line += " shared " + std::to_string(Shared);
  if (std::strcmp(Mode, "args") == 0) {
    unsigned long long Out, In;
    int Value;
    std::memcpy(&Out, Params[1], 8);
    std::memcpy(&In, Params[2], 8);
    std::memcpy(&Value, Params[3], 4);
    Line += " grid " + std::to_string(GX) + " block " + std::to_string(BX) +
            " out " + pointerText(Out) + " in " + pointerText(In) + " int " +
            std::to_string(Value);
  }
  return Line;
}

// A graph is its nodes in the order they were added (which the tests keep
// a topological one); its executable graph a copy. A node is what a launch
// of it prints (a kernel launch; a memset or copy under
// FAKECUDA_LAUNCHES=args), a host function, or a child graph.
struct FakeNode {
  FakeNode(std::string Line = "") : Line(std::move(Line)) {}
  std::string Line;
  bool Kernel = false;
  CUfunction Func = nullptr;
  unsigned GX = 0, BX = 0;
  CUhostFn Host = nullptr;
  void *Data = nullptr;
  std::shared_ptr<std::vector<FakeNode>> Child;
  std::vector<size_t> After; // a captured node's dependencies
};
using FakeGraph = std::vector<FakeNode>;
std::mutex GraphLock;
std::map<CUstream, FakeGraph *> Captures; // the streams being captured
// A capture's dependency set, where cuStreamUpdateCaptureDependencies set
// one; else the last node.
std::map<CUstream, std::vector<size_t>> CaptureDeps;

// Appends N to S's capture, after its dependency set (under GraphLock).
void captureNode(CUstream S, FakeGraph &G, FakeNode N) {
  auto It = CaptureDeps.find(S);
  if (It != CaptureDeps.end())
    N.After = It->second;
  else if (!G.empty())
    N.After = {G.size() - 1};
  G.push_back(std::move(N));
  CaptureDeps[S] = {G.size() - 1};
}
std::set<CUstream> Invalidated;           // captures an unsafe call ended

// The streams this thread captures, and its capture mode.
thread_local std::vector<CUstream> ThreadCaptures;
thread_local CUstreamCaptureMode ThreadMode = CU_STREAM_CAPTURE_MODE_GLOBAL;

// A call that a capturing thread may make only in the relaxed mode: else it
// fails and invalidates the thread's captures, as the driver does.
CUresult unsafeWhileCapturing(const char *Name) {
  if (ThreadCaptures.empty() || ThreadMode == CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_SUCCESS;
  std::fprintf(stderr, "fakecuda: %s while capturing invalidates the capture\n",
               Name);
  std::lock_guard<std::mutex> G(GraphLock);
  Invalidated.insert(ThreadCaptures.begin(), ThreadCaptures.end());
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

// Whether S's capture was invalidated (under GraphLock).
bool invalidated(CUstream S) { return Invalidated.count(S) != 0; }

// Under FAKECUDA_LAUNCHES=args, a memset or a copy on the device prints a
// line as a launch does (recorded, not printed, on a captured stream), with
// a "launch" of its own in it so that the replay tests' filters keep it.
// Whether it runs now: always without args; with it, not when captured.
bool operationLine(CUstream S, const std::string &What) {
  const char *Mode = std::getenv("FAKECUDA_LAUNCHES");
  if (!Mode || std::strcmp(Mode, "args") != 0)
    return true;
  std::lock_guard<std::mutex> G(GraphLock);
  auto It = Captures.find(S);
  std::string Line = "fakecuda: launch-free " + What;
  if (It != Captures.end()) {
    captureNode(S, *It->second, FakeNode(Line));
    return false;
  }
  std::fprintf(stderr, "%s\n", Line.c_str());
  return true;
}

// A launch of a graph: its lines printed, its host functions called.
void runGraph(const FakeGraph &Nodes) {
  for (const FakeNode &N : Nodes)
    if (N.Host)
      N.Host(N.Data);
    else if (N.Child)
      runGraph(*N.Child);
    else if (!N.Line.empty())
      std::fprintf(stderr, "%s\n", N.Line.c_str());
}

// A CUgraphNode: its graph and its place there (the same in an executable
// graph of it). A kernel node's parameters, as cuGraphKernelNodeGetParams
// gives them, point to its reference, so that a kernel node made from them
// prints the same line.
struct FakeNodeRef {
  FakeGraph *Graph;
  size_t Index;
};
std::vector<FakeNodeRef *> NodeRefs; // under GraphLock, never freed
FakeNodeRef *nodeRef(FakeGraph *G, size_t Index) {
  for (FakeNodeRef *R : NodeRefs)
    if (R->Graph == G && R->Index == Index)
      return R;
  NodeRefs.push_back(new FakeNodeRef{G, Index});
  return NodeRefs.back();
}
// The node that kernel parameters describe.
FakeNode kernelNode(const CUDA_KERNEL_NODE_PARAMS &P) {
  FakeNode N;
  for (FakeNodeRef *R : NodeRefs)
    if ((void *)R == (void *)P.kernelParams)
      N = (*R->Graph)[R->Index];
  if (N.Line.empty() && !N.Kernel)
    N.Line = launchLine(P.func, P.gridDimX, P.blockDimX, P.kernelParams);
  N.Kernel = true;
  N.Func = P.func;
  N.GX = P.gridDimX;
  N.BX = P.blockDimX;
  return N;
}

// Distinct non-null handles for the driver's opaque objects.
int Dummy[8];
void *handle(int I) { return &Dummy[I]; }

// The PTX loaded so far, and the module variables found in it.
std::mutex LoadedLock;
std::string LoadedPtx;
std::map<std::string, CUdeviceptr> Variables;

} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult E, const char **P) {
  LOG("cuGetErrorName");
  static const std::map<CUresult, const char *> Names = {
      {CUDA_SUCCESS, "CUDA_SUCCESS"},
      {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
      {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
      {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
       "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
      {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
      {CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
       "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
      {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE"},
      {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
      {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY"},
      {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"}};
  auto It = Names.find(E);
  if (It == Names.end())
    return CUDA_ERROR_INVALID_VALUE;
  *P = It->second;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult E, const char **P) {
  LOG("cuGetErrorString");
  if (E == 12345)
    return CUDA_ERROR_INVALID_VALUE;
  static thread_local std::string T;
  T = "text of " + std::to_string(int(E));
  *P = T.c_str();
  return CUDA_SUCCESS;
}
CUresult cuInit(unsigned int) {
  LOG("cuInit");
  FAIL("cuInit");
  return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *V) {
  LOG("cuDriverGetVersion");
  *V = 13000;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *C) {
  LOG("cuDeviceGetCount");
  FAIL("cuDeviceGetCount");
  const char *N = std::getenv("FAKECUDA_DEVICES");
  *C = N ? std::atoi(N) : 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *D, int O) {
  LOG("cuDeviceGet");
  FAIL("cuDeviceGet");
  *D = O;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *N, int L, CUdevice) {
  LOG("cuDeviceGetName");
  std::strncpy(N, "Fake H200", L);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  LOG("cuDeviceGetAttribute");
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *V = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *V = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *V = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *V = 49152;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *V = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *V = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *V = 233472;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *V = 2048;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *V = 32;
    break;
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
    *V = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    *V = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *V = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *V = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *V = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    *V = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *V = 65535;
    break;
  default:
    *V = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice) {
  LOG("cuDevicePrimaryCtxRetain");
  FAIL("cuDevicePrimaryCtxRetain");
  *C = (CUcontext)handle(1);
  return CUDA_SUCCESS;
}
static thread_local CUcontext Current = nullptr;
CUresult cuCtxGetCurrent(CUcontext *C) {
  LOG("cuCtxGetCurrent");
  *C = Current;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext C) {
  LOG("cuCtxSetCurrent");
  FAIL("cuCtxSetCurrent");
  Current = C;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  LOG("cuCtxSynchronize");
  FAIL("cuCtxSynchronize");
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *P, size_t B) {
  LOG("cuMemAlloc");
  FAIL("cuMemAlloc");
  *P = deviceMemory(B);
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr P) {
  LOG("cuMemFree");
  FAIL("cuMemFree");
  std::free((void *)P);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr D, const void *S, size_t B) {
  LOG("cuMemcpyHtoD");
  FAIL("cuMemcpyHtoD");
  std::memcpy((void *)D, S, B);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *D, CUdeviceptr S, size_t B) {
  LOG("cuMemcpyDtoH");
  FAIL("cuMemcpyDtoH");
  std::memcpy(D, (void *)S, B);
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadDataEx(CUmodule *M, const void *Image, unsigned int N,
                            CUjit_option *O, void **V) {
  LOG("cuModuleLoadDataEx");
  // PTX is text; a cubin starts with ELF's magic number.
  const char *Ms = std::getenv("FAKECUDA_PTX_LOAD_MS");
  bool Ptx = std::memcmp(Image, "\x7f" "ELF", 4) != 0;
  if (Ms && Ptx)
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(Ms)));
  if (Ptx) {
    std::lock_guard<std::mutex> G(LoadedLock);
    LoadedPtx += static_cast<const char *>(Image);
  }
  if (Ptx && std::getenv("FAKECUDA_LOADS")) {
    std::string Level = "default", Debug;
    for (unsigned I = 0; I < N; ++I)
      if (O[I] == CU_JIT_OPTIMIZATION_LEVEL)
        Level = "-O" + std::to_string((unsigned)(uintptr_t)V[I]);
      else if (O[I] == CU_JIT_GENERATE_DEBUG_INFO && V[I])
        Debug = " with debug information";
    std::fprintf(stderr, "fakecuda: load ptx at %s%s\n", Level.c_str(),
                 Debug.c_str());
  }
  if (CUresult R = injected("cuModuleLoadDataEx")) {
    for (unsigned I = 0; I < N; ++I)
      if (O[I] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy((char *)V[I], "ptxas fatal   : fake error log");
    return R;
  }
  *M = (CUmodule)handle(2);
  return CUDA_SUCCESS;
}
// A function's handle is its name (kept for the process), so that
// FAKECUDA_LAUNCHES=1 can print which function each launch ran.
CUresult cuModuleGetFunction(CUfunction *F, CUmodule, const char *Name) {
  LOG("cuModuleGetFunction");
  FAIL("cuModuleGetFunction");
  *F = (CUfunction)strdup(Name);
  return CUDA_SUCCESS;
}
// The device heap's size, as the driver keeps it.
static size_t FakeHeapSize = 8 << 20;
CUresult cuCtxSetLimit(CUlimit L, size_t V) {
  LOG("cuCtxSetLimit");
  FAIL("cuCtxSetLimit");
  if (L == CU_LIMIT_MALLOC_HEAP_SIZE)
    FakeHeapSize = V;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetLimit(size_t *V, CUlimit L) {
  LOG("cuCtxGetLimit");
  FAIL("cuCtxGetLimit");
  *V = L == CU_LIMIT_MALLOC_HEAP_SIZE ? FakeHeapSize : 0;
  return CUDA_SUCCESS;
}
// A module variable is one whose name some loaded PTX declares (all fake
// modules share one of each name): 8 bytes, or N for `name[N]`.
CUresult cuModuleGetGlobal(CUdeviceptr *P, size_t *B, CUmodule,
                           const char *Name) {
  LOG("cuModuleGetGlobal");
  FAIL("cuModuleGetGlobal");
  std::lock_guard<std::mutex> G(LoadedLock);
  size_t At = LoadedPtx.find(std::string(" ") + Name);
  if (At == std::string::npos) {
    *P = 0;
    *B = 0;
    return CUDA_ERROR_NOT_FOUND;
  }
  size_t After = At + 1 + std::strlen(Name);
  *B = LoadedPtx[After] == '[' ? std::strtoul(&LoadedPtx[After + 1], nullptr, 10)
                                : 8;
  auto [It, New] = Variables.try_emplace(Name, 0);
  if (New)
    It->second = deviceMemory(*B);
  *P = It->second;
  if (std::getenv("FAKECUDA_LAUNCHES"))
    std::fprintf(stderr, "fakecuda: module variable %s, %zu bytes\n", Name,
                 *B);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) {
  LOG("cuModuleUnload");
  return CUDA_SUCCESS;
}
// Each function's preferred shared memory carveout (percent; -1: none).
std::mutex CarveoutLock;
std::map<CUfunction, int> Carveouts;
CUresult cuFuncSetAttribute(CUfunction F, CUfunction_attribute A, int V) {
  LOG("cuFuncSetAttribute");
  FAIL("cuFuncSetAttribute");
  if (A == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
    std::lock_guard<std::mutex> G(CarveoutLock);
    Carveouts[F] = V;
  }
  if (std::getenv("FAKECUDA_LAUNCHES"))
    std::fprintf(stderr, "fakecuda: attribute %d = %d of %s\n", int(A), V,
                 (const char *)F);
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction);
// 2 blocks; with FAKECUDA_OCCUPANCY=N, an H100's rule: N blocks (what the
// registers allow), fewer where the shared memory of a block (the static
// size of FAKECUDA_FUNC_ATTRIBUTES, the dynamic one, 1 KiB reserved) does
// not fit N times in the carveout, the smallest of 0, 8, 16, 32, 64, 100,
// 132, 164, 196 and 228 KiB that holds the preferred percentage of 228 KiB
// (all of it without a preference).
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *B, CUfunction F,
                                                     int, size_t Dynamic) {
  LOG("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  FAIL("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  const char *Limit = std::getenv("FAKECUDA_OCCUPANCY");
  *B = Limit ? std::atoi(Limit) : 2;
  if (!Limit)
    return CUDA_SUCCESS;
  int Percent = -1;
  {
    std::lock_guard<std::mutex> G(CarveoutLock);
    if (auto It = Carveouts.find(F); It != Carveouts.end())
      Percent = It->second;
  }
  size_t Capacity = 228;
  if (Percent >= 0)
    for (size_t Kb : {0, 8, 16, 32, 64, 100, 132, 164, 196, 228})
      if (Kb * 100 >= size_t(Percent) * 228) {
        Capacity = Kb;
        break;
      }
  int Static = 0;
  cuFuncGetAttribute(&Static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, F);
  size_t PerBlock = size_t(Static) + Dynamic + 1024;
  *B = std::min<int>(*B, int(Capacity * 1024 / PerBlock));
  return CUDA_SUCCESS;
}
// FAKECUDA_FUNC_ATTRIBUTES="4=40,3=16": the attributes' values (here
// NUM_REGS and LOCAL_SIZE_BYTES, as CUfunction_attribute numbers them);
// others are 0.
CUresult cuFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction) {
  LOG("cuFuncGetAttribute");
  FAIL("cuFuncGetAttribute");
  *V = 0;
  const char *List = std::getenv("FAKECUDA_FUNC_ATTRIBUTES");
  for (const char *P = List; P && *P;) {
    char *End;
    long Attribute = std::strtol(P, &End, 10);
    if (*End != '=')
      break;
    long Value = std::strtol(End + 1, &End, 10);
    if (Attribute == long(A))
      *V = int(Value);
    P = *End == ',' ? End + 1 : End;
  }
  return CUDA_SUCCESS;
}
// A launch (cuLaunchKernel, cuLaunchKernelEx): FAKECUDA_FAULT=N loses the
// context at the Nth; a captured stream keeps it as a kernel node, else
// FAKECUDA_LAUNCHES prints its line. A programmatic launch's line ends with
// " (programmatic)" (printed, or kept in the node, as its edge would be).
static CUresult fakeLaunch(CUfunction F, unsigned GX, unsigned BX,
                           unsigned Shared, CUstream S, void **Params,
                           bool Programmatic) {
  static const char *Fault = std::getenv("FAKECUDA_FAULT");
  static std::atomic<int> Launches{0};
  if (Fault && ++Launches == std::atoi(Fault))
    ContextLost = true;
  std::string Line = launchLine(F, GX, BX, Params, Shared);
  if (Programmatic && !Line.empty())
    Line += " (programmatic)";
  std::lock_guard<std::mutex> G(GraphLock);
  if (invalidated(S))
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  if (auto It = Captures.find(S); It != Captures.end()) {
    FakeNode N(Line);
    N.Kernel = true;
    N.Func = F;
    N.GX = GX;
    N.BX = BX;
    captureNode(S, *It->second, N);
  } else if (!Line.empty())
    std::fprintf(stderr, "%s\n", Line.c_str());
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned, unsigned,
                        unsigned BX, unsigned, unsigned, unsigned Shared,
                        CUstream S, void **Params, void **) {
  LOG("cuLaunchKernel");
  FAIL("cuLaunchKernel");
  return fakeLaunch(F, GX, BX, Shared, S, Params, /*Programmatic=*/false);
}
CUresult cuLaunchKernelEx(const CUlaunchConfig *C, CUfunction F, void **Params,
                          void **) {
  LOG("cuLaunchKernelEx");
  FAIL("cuLaunchKernelEx");
  bool Programmatic = false;
  for (unsigned I = 0; I < C->numAttrs; ++I)
    if (C->attrs[I].id ==
        CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      Programmatic =
          C->attrs[I].value.programmaticStreamSerializationAllowed != 0;
  return fakeLaunch(F, C->gridDimX, C->blockDimX, C->sharedMemBytes,
                    C->hStream, Params, Programmatic);
}
// As cuLaunchKernel, and with FAKECUDA_LAUNCHES=1 a line before the launch's:
// "fakecuda: cooperative launch of F (N blocks)".
CUresult cuLaunchCooperativeKernel(CUfunction F, unsigned GX, unsigned GY,
                                   unsigned GZ, unsigned BX, unsigned, unsigned,
                                   unsigned, CUstream S, void **Params) {
  LOG("cuLaunchCooperativeKernel");
  FAIL("cuLaunchCooperativeKernel");
  if (std::getenv("FAKECUDA_LAUNCHES"))
    std::fprintf(stderr, "fakecuda: cooperative launch of %s (%u blocks)\n",
                 (const char *)F, GX * GY * GZ);
  std::string Line = launchLine(F, GX, BX, Params);
  if (!Line.empty())
    std::fprintf(stderr, "%s\n", Line.c_str());
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *E, unsigned int) {
  LOG("cuEventCreate");
  FAIL("cuEventCreate");
  *E = (CUevent) new int(0);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent E) {
  LOG("cuEventDestroy");
  delete (int *)E;
  return CUDA_SUCCESS;
}
// An event counts the queries since its record (FAKECUDA_QUERY_PENDING).
CUresult cuEventRecord(CUevent E, CUstream) {
  LOG("cuEventRecord");
  FAIL("cuEventRecord");
  *(int *)E = 0;
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) {
  LOG("cuEventSynchronize");
  FAIL("cuEventSynchronize");
  return unsafeWhileCapturing("cuEventSynchronize");
}
// FAKECUDA_EVENT_MS: the time between any two events (default 1 ms).
// A list (FAKECUDA_EVENT_MS=1,0.9,0.95) gives its times in turn, over again.
CUresult cuEventElapsedTime(float *M, CUevent, CUevent) {
  LOG("cuEventElapsedTime");
  FAIL("cuEventElapsedTime");
  static std::atomic<unsigned> Calls{0};
  const char *Ms = std::getenv("FAKECUDA_EVENT_MS");
  *M = 1;
  if (!Ms)
    return CUDA_SUCCESS;
  std::vector<float> Times;
  for (const char *P = Ms; *P;) {
    char *End;
    Times.push_back(std::strtof(P, &End));
    if (End == P)
      break;
    P = *End == ',' ? End + 1 : End;
  }
  if (!Times.empty())
    *M = Times[Calls++ % Times.size()];
  return CUDA_SUCCESS;
}
// FAKECUDA_QUERY_PENDING=N: the first N queries of each recorded event say
// CUDA_ERROR_NOT_READY, as for work still running.
CUresult cuEventQuery(CUevent E) {
  LOG("cuEventQuery");
  FAIL("cuEventQuery");
  if (CUresult R = unsafeWhileCapturing("cuEventQuery"))
    return R;
  static const char *Pending = std::getenv("FAKECUDA_QUERY_PENDING");
  if (Pending && (*(int *)E)++ < std::atoi(Pending))
    return CUDA_ERROR_NOT_READY;
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *S, unsigned int) {
  LOG("cuStreamCreate");
  FAIL("cuStreamCreate");
  *S = (CUstream) new int;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream S) {
  LOG("cuStreamDestroy");
  delete (int *)S;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream) {
  LOG("cuStreamSynchronize");
  FAIL("cuStreamSynchronize");
  return unsafeWhileCapturing("cuStreamSynchronize");
}
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int) {
  LOG("cuStreamWaitEvent");
  FAIL("cuStreamWaitEvent");
  return CUDA_SUCCESS;
}
CUresult cuMemPoolCreate(CUmemoryPool *P, const CUmemPoolProps *) {
  LOG("cuMemPoolCreate");
  FAIL("cuMemPoolCreate");
  if (Capturing)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  *P = (CUmemoryPool)handle(4);
  return CUDA_SUCCESS;
}
CUresult cuMemPoolSetAttribute(CUmemoryPool, CUmemPool_attribute, void *) {
  LOG("cuMemPoolSetAttribute");
  return CUDA_SUCCESS;
}
CUresult cuMemPoolTrimTo(CUmemoryPool, size_t) {
  LOG("cuMemPoolTrimTo");
  return CUDA_SUCCESS;
}
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *P, size_t B, CUmemoryPool,
                                 CUstream) {
  LOG("cuMemAllocFromPoolAsync");
  FAIL("cuMemAllocFromPoolAsync");
  *P = deviceMemory(B);
  return CUDA_SUCCESS;
}
CUresult cuMemFreeAsync(CUdeviceptr P, CUstream) {
  LOG("cuMemFreeAsync");
  FAIL("cuMemFreeAsync");
  std::free((void *)P);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr D, const void *S, size_t B, CUstream) {
  LOG("cuMemcpyHtoDAsync");
  FAIL("cuMemcpyHtoDAsync");
  std::memcpy((void *)D, S, B);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync(void *D, CUdeviceptr S, size_t B, CUstream) {
  LOG("cuMemcpyDtoHAsync");
  FAIL("cuMemcpyDtoHAsync");
  std::memcpy(D, (void *)S, B);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr D, CUdeviceptr S, size_t B,
                           CUstream St) {
  LOG("cuMemcpyDtoDAsync");
  FAIL("cuMemcpyDtoDAsync");
  if (operationLine(St, "copy " + pointerText(S) + " to " + pointerText(D) +
                            " " + std::to_string(B) + " bytes"))
    std::memmove((void *)D, (void *)S, B);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N,
                         CUstream S) {
  LOG("cuMemsetD8Async");
  FAIL("cuMemset");
  operationLine(S, "memset8 " + pointerText(D) + " value " +
                       std::to_string(V) + " x " + std::to_string(N));
  return CUDA_SUCCESS;
}
CUresult cuMemsetD16Async(CUdeviceptr D, unsigned short V, size_t N,
                          CUstream S) {
  LOG("cuMemsetD16Async");
  FAIL("cuMemset");
  operationLine(S, "memset16 " + pointerText(D) + " value " +
                       std::to_string(V) + " x " + std::to_string(N));
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr D, unsigned int V, size_t N,
                          CUstream S) {
  LOG("cuMemsetD32Async");
  FAIL("cuMemset");
  operationLine(S, "memset32 " + pointerText(D) + " value " +
                       std::to_string(V) + " x " + std::to_string(N));
  return CUDA_SUCCESS;
}
CUresult cuMemsetD2D8Async(CUdeviceptr, size_t, unsigned char, size_t, size_t,
                           CUstream) {
  LOG("cuMemsetD2D8Async");
  FAIL("cuMemset");
  return CUDA_SUCCESS;
}
CUresult cuMemsetD2D16Async(CUdeviceptr, size_t, unsigned short, size_t, size_t,
                            CUstream) {
  LOG("cuMemsetD2D16Async");
  FAIL("cuMemset");
  return CUDA_SUCCESS;
}
CUresult cuMemsetD2D32Async(CUdeviceptr, size_t, unsigned int, size_t, size_t,
                            CUstream) {
  LOG("cuMemsetD2D32Async");
  FAIL("cuMemset");
  return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void **P, size_t B, unsigned int) {
  LOG("cuMemHostAlloc");
  FAIL("cuMemHostAlloc");
  *P = std::malloc(B);
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *P) {
  LOG("cuMemFreeHost");
  std::free(P);
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr *P, size_t B, unsigned int) {
  LOG("cuMemAllocManaged");
  FAIL("cuMemAllocManaged");
  *P = deviceMemory(B);
  return CUDA_SUCCESS;
}
CUresult cuMemPrefetchAsync(CUdeviceptr, size_t, CUmemLocation, unsigned int,
                            CUstream) {
  LOG("cuMemPrefetchAsync");
  FAIL("cuMemPrefetchAsync");
  return CUDA_SUCCESS;
}
CUresult cuStreamBeginCapture(CUstream S, CUstreamCaptureMode) {
  LOG("cuStreamBeginCapture");
  FAIL("cuStreamBeginCapture");
  ++Capturing;
  ThreadCaptures.push_back(S);
  std::lock_guard<std::mutex> G(GraphLock);
  Captures[S] = new FakeGraph;
  CaptureDeps.erase(S);
  return CUDA_SUCCESS;
}
CUresult cuStreamEndCapture(CUstream S, CUgraph *G) {
  LOG("cuStreamEndCapture");
  FAIL("cuStreamEndCapture");
  --Capturing;
  ThreadCaptures.erase(
      std::remove(ThreadCaptures.begin(), ThreadCaptures.end(), S),
      ThreadCaptures.end());
  std::lock_guard<std::mutex> L(GraphLock);
  *G = (CUgraph)Captures[S];
  Captures.erase(S);
  CaptureDeps.erase(S);
  if (std::getenv("FAKECUDA_GRAPHS") && *G) {
    std::string Line = "fakecuda: captured graph:";
    const FakeGraph &Nodes = *(const FakeGraph *)*G;
    for (size_t I = 0; I < Nodes.size(); ++I) {
      Line += " " + std::to_string(I) + "<-";
      for (size_t J = 0; J < Nodes[I].After.size(); ++J)
        Line += (J ? "," : "") + std::to_string(Nodes[I].After[J]);
    }
    std::fprintf(stderr, "%s\n", Line.c_str());
  }
  if (Invalidated.erase(S)) {
    delete (FakeGraph *)*G;
    *G = nullptr;
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCaptureInfo_v3(CUstream S, CUstreamCaptureStatus *Status,
                                   cuuint64_t *Id, CUgraph *Graph,
                                   const CUgraphNode **Deps,
                                   const CUgraphEdgeData **Edges,
                                   size_t *Count) {
  LOG("cuStreamGetCaptureInfo");
  FAIL("cuStreamGetCaptureInfo");
  static thread_local std::vector<CUgraphNode> Nodes;
  static thread_local std::vector<CUgraphEdgeData> EdgeData;
  std::lock_guard<std::mutex> L(GraphLock);
  auto It = Captures.find(S);
  *Status = It == Captures.end() ? CU_STREAM_CAPTURE_STATUS_NONE
                                 : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  if (Id)
    *Id = 0;
  if (Graph)
    *Graph = It == Captures.end() ? nullptr : (CUgraph)It->second;
  Nodes.clear();
  if (It != Captures.end()) {
    auto D = CaptureDeps.find(S);
    if (D != CaptureDeps.end())
      for (size_t I : D->second)
        Nodes.push_back((CUgraphNode)nodeRef(It->second, I));
  }
  EdgeData.assign(Nodes.size(), CUgraphEdgeData{});
  if (Deps)
    *Deps = Nodes.data();
  if (Edges)
    *Edges = EdgeData.data();
  if (Count)
    *Count = Nodes.size();
  return CUDA_SUCCESS;
}
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream S, CUgraphNode *Deps,
                                              const CUgraphEdgeData *,
                                              size_t Count, unsigned Flags) {
  LOG("cuStreamUpdateCaptureDependencies");
  FAIL("cuStreamUpdateCaptureDependencies");
  std::lock_guard<std::mutex> L(GraphLock);
  auto It = Captures.find(S);
  if (It == Captures.end())
    return CUDA_ERROR_ILLEGAL_STATE;
  std::vector<size_t> &Set = CaptureDeps[S];
  if (Flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES)
    Set.clear();
  for (size_t I = 0; I < Count; ++I) {
    auto *R = (FakeNodeRef *)Deps[I];
    if (R->Graph != It->second)
      return CUDA_ERROR_INVALID_VALUE;
    Set.push_back(R->Index);
  }
  return CUDA_SUCCESS;
}
CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *Mode) {
  LOG("cuThreadExchangeStreamCaptureMode");
  std::swap(*Mode, ThreadMode);
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiateWithFlags(CUgraphExec *E, CUgraph G,
                                     unsigned long long) {
  LOG("cuGraphInstantiateWithFlags");
  FAIL("cuGraphInstantiateWithFlags");
  *E = (CUgraphExec) new FakeGraph(*(FakeGraph *)G);
  return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec E, CUstream) {
  LOG("cuGraphLaunch");
  FAIL("cuGraphLaunch");
  const FakeGraph &Nodes = *(const FakeGraph *)E;
  if (std::getenv("FAKECUDA_GRAPHS"))
    std::fprintf(stderr, "fakecuda: graph launch (%zu kernels)\n",
                 Nodes.size());
  runGraph(Nodes);
  return CUDA_SUCCESS;
}
CUresult cuGraphExecDestroy(CUgraphExec E) {
  LOG("cuGraphExecDestroy");
  delete (FakeGraph *)E;
  return CUDA_SUCCESS;
}
CUresult cuPointerGetAttributes(unsigned int, CUpointer_attribute *, void **,
                                CUdeviceptr) {
  LOG("cuPointerGetAttributes");
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGraphDestroy(CUgraph G) {
  LOG("cuGraphDestroy");
  delete (FakeGraph *)G;
  return CUDA_SUCCESS;
}
CUresult cuGraphCreate(CUgraph *G, unsigned) {
  LOG("cuGraphCreate");
  FAIL("cuGraphCreate");
  *G = (CUgraph) new FakeGraph;
  return CUDA_SUCCESS;
}
// Adds N to G (after the nodes before it: dependencies are not kept).
CUresult addNode(CUgraphNode *Node, CUgraph G, FakeNode N) {
  std::lock_guard<std::mutex> L(GraphLock);
  FakeGraph &Nodes = *(FakeGraph *)G;
  Nodes.push_back(std::move(N));
  *Node = (CUgraphNode)nodeRef(&Nodes, Nodes.size() - 1);
  return CUDA_SUCCESS;
}
CUresult cuGraphAddChildGraphNode(CUgraphNode *Node, CUgraph G,
                                  const CUgraphNode *, size_t, CUgraph Child) {
  LOG("cuGraphAddChildGraphNode");
  FAIL("cuGraphAddChildGraphNode");
  FakeNode N;
  N.Child = std::make_shared<FakeGraph>(*(FakeGraph *)Child);
  return addNode(Node, G, std::move(N));
}
CUresult cuGraphAddEmptyNode(CUgraphNode *Node, CUgraph G, const CUgraphNode *,
                             size_t) {
  LOG("cuGraphAddEmptyNode");
  FAIL("cuGraphAddEmptyNode");
  return addNode(Node, G, FakeNode());
}
CUresult cuGraphAddHostNode(CUgraphNode *Node, CUgraph G, const CUgraphNode *,
                            size_t, const CUDA_HOST_NODE_PARAMS *P) {
  LOG("cuGraphAddHostNode");
  FAIL("cuGraphAddHostNode");
  FakeNode N;
  N.Host = P->fn;
  N.Data = P->userData;
  return addNode(Node, G, std::move(N));
}
CUresult cuGraphAddKernelNode(CUgraphNode *Node, CUgraph G,
                              const CUgraphNode *, size_t,
                              const CUDA_KERNEL_NODE_PARAMS *P) {
  LOG("cuGraphAddKernelNode");
  FAIL("cuGraphAddKernelNode");
  FakeNode N;
  {
    std::lock_guard<std::mutex> L(GraphLock);
    N = kernelNode(*P);
  }
  return addNode(Node, G, std::move(N));
}
CUresult cuGraphAddDependencies(CUgraph, const CUgraphNode *,
                                const CUgraphNode *, const CUgraphEdgeData *,
                                size_t) {
  LOG("cuGraphAddDependencies");
  FAIL("cuGraphAddDependencies");
  return CUDA_SUCCESS;
}
CUresult cuGraphGetNodes(CUgraph G, CUgraphNode *Nodes, size_t *Count) {
  LOG("cuGraphGetNodes");
  std::lock_guard<std::mutex> L(GraphLock);
  FakeGraph &All = *(FakeGraph *)G;
  if (Nodes)
    for (size_t I = 0; I < *Count && I < All.size(); ++I)
      Nodes[I] = (CUgraphNode)nodeRef(&All, I);
  *Count = All.size();
  return CUDA_SUCCESS;
}
CUresult cuGraphNodeGetType(CUgraphNode Node, CUgraphNodeType *Type) {
  LOG("cuGraphNodeGetType");
  std::lock_guard<std::mutex> L(GraphLock);
  auto *R = (FakeNodeRef *)Node;
  const FakeNode &N = (*R->Graph)[R->Index];
  *Type = N.Kernel  ? CU_GRAPH_NODE_TYPE_KERNEL
          : N.Host  ? CU_GRAPH_NODE_TYPE_HOST
          : N.Child ? CU_GRAPH_NODE_TYPE_GRAPH
                    : CU_GRAPH_NODE_TYPE_MEMSET;
  return CUDA_SUCCESS;
}
CUresult cuGraphKernelNodeGetParams(CUgraphNode Node,
                                    CUDA_KERNEL_NODE_PARAMS *P) {
  LOG("cuGraphKernelNodeGetParams");
  FAIL("cuGraphKernelNodeGetParams");
  std::lock_guard<std::mutex> L(GraphLock);
  auto *R = (FakeNodeRef *)Node;
  const FakeNode &N = (*R->Graph)[R->Index];
  *P = {};
  P->func = N.Func;
  P->gridDimX = N.GX;
  P->blockDimX = N.BX;
  P->kernelParams = (void **)R;
  return CUDA_SUCCESS;
}
CUresult cuGraphKernelNodeSetParams(CUgraphNode Node,
                                    const CUDA_KERNEL_NODE_PARAMS *P) {
  LOG("cuGraphKernelNodeSetParams");
  FAIL("cuGraphKernelNodeSetParams");
  std::lock_guard<std::mutex> L(GraphLock);
  auto *R = (FakeNodeRef *)Node;
  (*R->Graph)[R->Index] = kernelNode(*P);
  return CUDA_SUCCESS;
}
CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode, CUgraphNode) {
  LOG("cuGraphKernelNodeCopyAttributes");
  FAIL("cuGraphKernelNodeCopyAttributes");
  return CUDA_SUCCESS;
}
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec E, CUgraphNode Node,
                                        const CUDA_KERNEL_NODE_PARAMS *P) {
  LOG("cuGraphExecKernelNodeSetParams");
  FAIL("cuGraphExecKernelNodeSetParams");
  std::lock_guard<std::mutex> L(GraphLock);
  auto *R = (FakeNodeRef *)Node;
  (*(FakeGraph *)E)[R->Index] = kernelNode(*P);
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *B, CUdevice) {
  LOG("cuDeviceTotalMem");
  *B = size_t(1) << 37;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetPCIBusId(char *P, int L, CUdevice) {
  LOG("cuDeviceGetPCIBusId");
  std::strncpy(P, "0000:01:00.0", L);
  return CUDA_SUCCESS;
}
CUresult cuDeviceCanAccessPeer(int *C, CUdevice, CUdevice) {
  LOG("cuDeviceCanAccessPeer");
  *C = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxEnablePeerAccess(CUcontext, unsigned int) {
  LOG("cuCtxEnablePeerAccess");
  return CUDA_SUCCESS;
}
CUresult cuMemPoolSetAccess(CUmemoryPool, const CUmemAccessDesc *, size_t) {
  LOG("cuMemPoolSetAccess");
  return CUDA_SUCCESS;
}
CUresult cuMemcpyPeerAsync(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext,
                           size_t, CUstream) {
  LOG("cuMemcpyPeerAsync");
  FAIL("cuMemcpyPeerAsync");
  return CUDA_SUCCESS;
}
CUresult cuPointerGetAttribute(void *, CUpointer_attribute, CUdeviceptr) {
  LOG("cuPointerGetAttribute");
  return CUDA_ERROR_INVALID_VALUE;
}

} // extern "C"
