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
// A kernel that synchronizes its grid runs every block at once instead, each
// on an OS thread of its own (runAllAtOnce).
// Staged values need no work here: the host body evaluates stage() itself.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuLaunch.h"
#include "backends/cpu/CpuFibers.h"
#include "backends/cpu/CpuThread.h"
#include "backends/cpu/CpuThreadPool.h"
#include "core/RuntimeError.h"
#include "core/ThreadOwned.h"
#include "inspect/Trace.h"
#include "support/Settings.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mstage::rt {

thread_local CpuThread *CurrentCpuThread = nullptr;

namespace {

enum class FiberMode { Auto, Always };

FiberMode fiberMode() {
  return cpuFibersAlwaysSetting() ? FiberMode::Always : FiberMode::Auto;
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
    if (K.Blob.Traits.SyncsGrid)
      Proto.GridBarrier = &GridBarrier;
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
  unsigned GridBarrier = 0; // this launch's, when the kernel syncs its grid
  CpuThread Proto;
  std::atomic<bool> Failed{false};
  std::mutex ErrorLock;
  std::string Error;
};

// A grid barrier waits for every block of the grid: each block gets an OS
// thread of its own (a pool's thread would wait for blocks queued behind
// it), and the threads give way while they wait (__mstage_nanosleep).
constexpr uint64_t MaxGridSyncBlocks = 1024;

void runAllAtOnce(uint64_t Blocks, CpuTasks &Tasks) {
  std::vector<std::thread> Threads;
  Threads.reserve(Blocks);
  for (uint64_t B = 0; B < Blocks; ++B)
    Threads.emplace_back([&Tasks, B] { Tasks.run(B); });
  for (std::thread &T : Threads)
    T.join();
}

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
  const mstage::KernelTraits &Traits = K.Blob.Traits;
  bool Fibers =
      Threads > 1 && (fiberMode() == FiberMode::Always || Traits.Synchronizes);
  uint64_t Blocks = uint64_t(C.grid[0]) * C.grid[1] * C.grid[2];
  if (Traits.SyncsGrid && Blocks > MaxGridSyncBlocks)
    return withKernel(
        failure("synchronizes its grid (this_grid().sync()), so all " +
                    std::to_string(Blocks) +
                    " blocks must run at once, each on an OS thread of the "
                    "CPU back end, which runs at most " +
                    std::to_string(MaxGridSyncBlocks) + " at once",
                RuntimeFailure::Join::Clause),
        K);
  BlockTasks Tasks(K, Invoke, Params, C, Fibers);
  if (Traits.SyncsGrid)
    runAllAtOnce(Blocks, Tasks);
  else
    runOnCpuThreads(Blocks, Tasks);
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count();
  if (KernelMs)
    *KernelMs = Ms;
  if (Trace)
    traceCpuLaunch(K.Blob, C, Fibers,
                   Traits.SyncsGrid ? unsigned(Blocks) : cpuThreadCount(), Ms);
  if (std::string Why = Tasks.error(); !Why.empty())
    return withKernel(
        context(failure(Why), "on the CPU", RuntimeFailure::Join::Clause), K);
  return llvm::Error::success();
}

} // namespace mstage::rt
