//===- CpuLaunch.cpp - Launching kernels on the host's cores --------------===//
//
// A CPU launch runs the kernel's host-compiled body (kernel_entry, through
// the launch's invoker) once per GPU thread. Blocks are tasks of the thread
// pool; each OS thread runs whole blocks, one at a time, so the threads of a
// block share its shared memory without locks. Within a block:
//  - a kernel that never synchronizes (its device code has no barrier and no
//    warp operation) runs its threads as a plain loop, x fastest;
//  - any other kernel runs them as fibers (CpuFibers.h) that switch at each
//    barrier and warp operation.
// Staged values need no work here: the host body evaluates stage() itself.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuLaunch.h"
#include "core/RuntimeError.h"
#include "core/ThreadOwned.h"
#include "backends/cpu/CpuFibers.h"
#include "backends/cpu/CpuThread.h"
#include "backends/cpu/CpuThreadPool.h"
#include "inspect/Trace.h"
#include "support/KeptStatics.h"
#include "support/Settings.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace mstage::rt {

thread_local CpuThread *CurrentCpuThread = nullptr;

namespace {

// Whether the kernel's threads must be able to wait for each other: its
// device code (where the builtins are already NVVM intrinsics) calls a
// barrier, a warp vote, shuffle or sync, or activemask. Read from the
// embedded bitcode once per kernel; only the declarations are read.
bool scanNeedsFibers(const KernelBlob &Blob) {
  llvm::LLVMContext Ctx;
  auto M = llvm::getLazyBitcodeModule(
      llvm::MemoryBufferRef(Blob.Bitcode, Blob.Name), Ctx);
  if (!M) {
    llvm::consumeError(M.takeError());
    return true; // unreadable: the general way is always right
  }
  static const char *const Synchronizing[] = {
      "llvm.nvvm.barrier", "llvm.nvvm.bar.", "llvm.nvvm.vote.",
      "llvm.nvvm.shfl.", "llvm.nvvm.activemask"};
  for (const llvm::Function &F : **M)
    for (const char *Prefix : Synchronizing)
      if (F.getName().starts_with(Prefix))
        return true;
  return false;
}

enum class FiberMode { Auto, Always };

FiberMode fiberMode() {
  return cpuFibersAlwaysSetting() ? FiberMode::Always : FiberMode::Auto;
}

bool needsFibers(const RegisteredKernel &K) {
  thread_local const RegisteredKernel *Last = nullptr;
  thread_local bool LastNeeds = false;
  if (&K == Last)
    return LastNeeds;
  // Never destroyed: static destructors launch too.
  static std::mutex &Lock = *new std::mutex;
  static auto &Known = *new std::unordered_map<const RegisteredKernel *, bool>;
  std::lock_guard<std::mutex> G(Lock);
  auto [It, New] = Known.try_emplace(&K, false);
  if (New) {
    LlvmStaticsKept Kept;
    It->second = scanNeedsFibers(K.Blob);
  }
  Last = &K;
  return LastNeeds = It->second;
}

// What one OS thread keeps between the blocks it runs.
struct Worker {
  std::unique_ptr<FiberBlock> Fibers;
  void *Shared = nullptr;
  std::size_t SharedCapacity = 0;

  ~Worker() { std::free(Shared); }

  void *shared(std::size_t Bytes) {
    if (Bytes > SharedCapacity || !Shared) {
      std::free(Shared);
      SharedCapacity = (std::max<std::size_t>(Bytes, 1) + 63) / 64 * 64;
      // 64-byte aligned: at least the 16 bytes the builtin promises, and a
      // block's shared memory does not share a cache line with another's.
      Shared = std::aligned_alloc(64, SharedCapacity);
    }
    return Shared;
  }
};

class BlockTasks final : public CpuTasks {
public:
  BlockTasks(const RegisteredKernel &K, mstage_invoke_fn Invoke,
             void *const *Params, const mstage_launch_config &C, bool Fibers)
      : Invoke(Invoke), Params(Params), Fibers(Fibers) {
    for (int I = 0; I < 3; ++I) {
      Proto.Ntid[I] = C.block[I];
      Proto.Nctaid[I] = C.grid[I];
    }
    Proto.BlockThreads = C.block[0] * C.block[1] * C.block[2];
    Proto.SharedBytes = C.shared_bytes;
    Proto.KernelName = K.Blob.PrettyName.c_str();
  }

  void run(uint64_t Task) override {
    if (Failed.load(std::memory_order_relaxed))
      return; // the launch has failed: skip the remaining blocks
    CpuThread T = Proto;
    T.Ctaid[0] = unsigned(Task % Proto.Nctaid[0]);
    T.Ctaid[1] = unsigned(Task / Proto.Nctaid[0] % Proto.Nctaid[1]);
    T.Ctaid[2] = unsigned(Task / (uint64_t(Proto.Nctaid[0]) * Proto.Nctaid[1]));
    T.Shared = ThreadOwned<Worker>::get().shared(Proto.SharedBytes);
    if (!T.Shared)
      return setError("cannot allocate " + std::to_string(Proto.SharedBytes) +
                      " bytes of shared memory");
    if (Fibers)
      return runFibers(T);
    // The plain loop: one context, its indices updated per thread.
    CpuThread *Outer = CurrentCpuThread;
    CurrentCpuThread = &T;
    for (unsigned Z = 0; Z < Proto.Ntid[2]; ++Z)
      for (unsigned Y = 0; Y < Proto.Ntid[1]; ++Y)
        for (unsigned X = 0; X < Proto.Ntid[0]; ++X) {
          T.Tid[0] = X;
          T.Tid[1] = Y;
          T.Tid[2] = Z;
          Invoke(Params);
          ++T.Linear;
        }
    CurrentCpuThread = Outer;
  }

  std::string error() {
    std::lock_guard<std::mutex> G(ErrorLock);
    return Error;
  }

private:
  void runFibers(CpuThread &T) {
    Worker &W = ThreadOwned<Worker>::get();
    if (!W.Fibers)
      W.Fibers = std::make_unique<FiberBlock>();
    std::string Why = W.Fibers->run(Invoke, Params, T);
    if (!Why.empty())
      setError(Why);
  }

  void setError(std::string Why) {
    std::lock_guard<std::mutex> G(ErrorLock);
    if (Error.empty())
      Error = std::move(Why);
    Failed = true;
  }

  mstage_invoke_fn Invoke;
  void *const *Params;
  bool Fibers;
  CpuThread Proto;
  std::atomic<bool> Failed{false};
  std::mutex ErrorLock;
  std::string Error;
};

} // namespace

llvm::Error launchOnCpu(const RegisteredKernel &K, mstage_invoke_fn Invoke,
                        void *const *Params, const mstage_launch_config &C,
                        double *KernelMs) {
  if (!Invoke)
    return withKernel(failure("cannot run on the CPU: the program was built "
                              "without the kernel's invoker; rebuild it",
                              RuntimeFailure::Join::Clause),
                      K);
  bool Trace = traceEnabled();
  auto T0 = std::chrono::steady_clock::now();
  uint64_t Threads = uint64_t(C.block[0]) * C.block[1] * C.block[2];
  // A block of one thread cannot wait for another: the loop is exact.
  bool Fibers =
      Threads > 1 && (fiberMode() == FiberMode::Always || needsFibers(K));
  uint64_t Blocks = uint64_t(C.grid[0]) * C.grid[1] * C.grid[2];
  BlockTasks Tasks(K, Invoke, Params, C, Fibers);
  runOnCpuThreads(Blocks, Tasks);
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count();
  if (KernelMs)
    *KernelMs = Ms;
  if (Trace)
    traceCpuLaunch(K.Blob, C, Fibers, cpuThreadCount(), Ms);
  if (std::string Why = Tasks.error(); !Why.empty())
    return withKernel(
        context(failure(Why), "on the CPU", RuntimeFailure::Join::Clause), K);
  return llvm::Error::success();
}

} // namespace mstage::rt
