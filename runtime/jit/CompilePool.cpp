//===- CompilePool.cpp - The background compile pool ----------------------===//
#include "jit/CompilePool.h"
#include "cache/CubinWriter.h"
#include "cache/DiskCache.h"
#include "inspect/Dump.h"
#include "inspect/TraceEvents.h"
#include "jit/JitCompiler.h"
#include "support/KeptStatics.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <unordered_map>

namespace mstage::rt {
namespace {

void waitAtExitFirst();

// Set on a worker while it runs a job: a job that ends the process (exit()
// from a compile) must not wait for itself.
thread_local bool InJob = false;

// A worker runs its jobs at the lowest priority (nice 19; ptxas, which it
// starts, inherits it), so that the program's own threads come first where
// they share a CPU. Measured on an H200, heat 1024^2's first 100 cold steps
// (median of 9 processes against nvcc): 1.57x at the workers' default
// priority, 1.20x at nice 19 (nice 10: no better), 1.11x compiling nothing.
void lowerWorkerPriority() {
  static thread_local bool Lowered = false;
  if (Lowered)
    return;
  Lowered = true;
  // Per thread on Linux: the thread's id, not the process's. A refusal
  // (a sandbox) leaves it as it was.
  (void)setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 19);
}

struct Job {
  const void *Owner;
  llvm::unique_function<void()> Run;
};

// The jobs are queued here, not in the thread pool, so that they can be
// dropped: each pool task runs the next job, if there is one left.
class CompilePool {
public:
  CompilePool() : Workers(llvm::hardware_concurrency(jitSettings().Threads)) {}

  void queue(const void *Owner, llvm::unique_function<void()> Run) {
    assert(Run && "a queued job has work");
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Exiting)
        return;
      Queued.push_back({Owner, std::move(Run)});
    }
    Workers.async([this] { runNext(); });
  }

  void waitAll() {
    std::unique_lock<std::mutex> G(Lock);
    Idle.wait(G, [&] { return Exiting || (Queued.empty() && Running == 0); });
  }

  void finish(const void *Owner) {
    std::unique_lock<std::mutex> G(Lock);
    llvm::erase_if(Queued, [&](const Job &J) { return J.Owner == Owner; });
    // Once the exit has handed compiles over, none of them runs again.
    Idle.wait(G, [&] { return HandedOver || RunningOf[Owner] == 0; });
    RunningOf.erase(Owner);
  }

  // At exit: what is queued gets MSTAGE_JIT_EXIT_WAIT_MS to finish, so
  // that a short program fills the disk cache and its dumps; what is left
  // then is dropped (and said), and what runs finishes, but for compiles
  // that wait for ptxas: those are handed over (CompilePool.h).
  void exit() {
    std::unique_lock<std::mutex> G(Lock);
    // Handed-over compiles never finish: an exit handler that runs again
    // must not wait for them.
    if (HandedOver)
      return;
    unsigned Self = InJob ? 1 : 0;
    auto Done = [&] { return Running == Self + InPtxas; };
    if (!Exiting) {
      auto Wait = std::chrono::milliseconds(jitSettings().ExitWaitMs);
      Idle.wait_for(G, Wait, [&] { return Queued.empty() && Done(); });
      Exiting = true;
      if (!Queued.empty())
        warn("exit: " + llvm::Twine(Queued.size()) +
             " queued background compile" +
             (Queued.size() == 1 ? " was" : "s were") +
             " dropped after waiting " + llvm::Twine(jitSettings().ExitWaitMs) +
             " ms (MSTAGE_JIT_EXIT_WAIT_MS); their "
             "specializations are not in the disk cache or the dumps");
      Queued.clear();
      Idle.notify_all();
    }
    Idle.wait(G, Done);
    assert(Queued.empty() && "nothing is queued once the pool exits");
    if (!InPtxas)
      return;
    HandedOver = true;
    // Said in the text trace only: a cold process hands its last compiles
    // over every time, which is not a problem.
    if (traceSetting().Text)
      llvm::errs() << "mstage: trace: exit: " << InPtxas
                   << " background compile" << (InPtxas == 1 ? "" : "s")
                   << " handed over to ptxas (the next process stores "
                   << (InPtxas == 1 ? "its entry" : "their entries") << ")\n";
  }

  void waitingForPtxas(bool Starts) {
    if (!InJob)
      return;
    std::unique_lock<std::mutex> G(Lock);
    if (Starts) {
      ++InPtxas;
      Idle.notify_all();
      return;
    }
    assert(InPtxas > 0 && "a compile that waited for ptxas was counted");
    --InPtxas;
    if (!HandedOver)
      return;
    // The exit went on without this compile, which must not run on under
    // the process's static destructors: its thread ends with the process.
    G.unlock();
    for (;;)
      pause();
  }

  bool exiting() {
    std::lock_guard<std::mutex> G(Lock);
    return Exiting;
  }

private:
  void runNext() {
    Job J;
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Queued.empty())
        return; // dropped
      J = std::move(Queued.front());
      Queued.pop_front();
      ++Running;
      ++RunningOf[J.Owner];
    }
    waitAtExitFirst();
    lowerWorkerPriority();
    assert(!InJob && "a worker runs one job at a time");
    InJob = true;
    J.Run();
    J.Run = nullptr; // what it holds goes before the waiters are told
    InJob = false;
    std::lock_guard<std::mutex> G(Lock);
    assert(Running > 0 && RunningOf[J.Owner] > 0 &&
           "a job that finishes was counted as running");
    --Running;
    --RunningOf[J.Owner];
    Idle.notify_all();
  }

  std::mutex Lock;
  std::condition_variable Idle;
  std::deque<Job> Queued;
  unsigned Running = 0;
  unsigned InPtxas = 0; // running jobs that wait for a ptxas run kept apart
  std::unordered_map<const void *, unsigned> RunningOf;
  bool Exiting = false;
  bool HandedOver = false; // the exit left jobs that wait for ptxas
  llvm::StdThreadPool Workers;
};

std::atomic<CompilePool *> Made{nullptr};

void exitHandler() {
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    P->exit();
}

void exitHandlerWithArg(void *) { exitHandler(); }

} // namespace
} // namespace mstage::rt

// exit() runs the handlers registered with atexit and the destructors of
// statics in the reverse order of their registration. A static that LLVM
// makes on first use (its pass gate, the real file system, NVPTX's
// annotation cache, ...) is often made by a compile, and registers its
// destructor after the pool's exit handler: exit() would destroy it under
// the running compile (measured: crashes in the legacy pass manager and
// "free(): invalid pointer" with compiles running at exit). The runtime is
// linked with --wrap=__cxa_atexit, so that each such registration in the
// runtime (LLVM is linked into it) registers the exit handler again, after
// it: the handler waits for the compiles before the static is destroyed.
// A static that LLVM makes in its work is not destroyed at all
// (support/KeptStatics.h): an object's destructor has Arg, an atexit handler
// has none.
//
// glibc's fork() leaves the child its list of exit handlers locked when
// another thread was adding one: the child's exit() then waits forever
// (measured on an H200: 10 of 40 runs of the GPU suite's lifecycle, which
// forks 12 times while compiles run, each such child stuck in exit()).
// Compiles register handlers all the time, so every registration here holds
// registeringAtExit(), and fork() takes it after the runtime's other locks:
// its handlers are registered before any other (the constructor below), and
// fork() takes the prepare handlers in the reverse order.
extern "C" int __real___cxa_atexit(void (*)(void *), void *, void *);

namespace mstage::rt {
namespace {
std::mutex &registeringAtExit() {
  static std::mutex &M = *new std::mutex;
  return M;
}

[[gnu::constructor(101)]] void holdAtExitListAcrossFork() {
  auto Unlock = [] { registeringAtExit().unlock(); };
  pthread_atfork([] { registeringAtExit().lock(); }, Unlock, Unlock);
}
} // namespace
} // namespace mstage::rt

extern "C" int __wrap___cxa_atexit(void (*Fn)(void *), void *Arg, void *Dso) {
  if (Arg && mstage::rt::KeptStaticsDepth > 0)
    return 0;
  std::lock_guard<std::mutex> G(mstage::rt::registeringAtExit());
  int Result = __real___cxa_atexit(Fn, Arg, Dso);
  if (mstage::rt::Made.load(std::memory_order_acquire))
    __real___cxa_atexit(mstage::rt::exitHandlerWithArg, nullptr, nullptr);
  return Result;
}

namespace mstage::rt {
namespace {

// Statics made outside the runtime (the C++ library's, the driver's PTX JIT
// that its first load opens) register their destructors themselves: each
// compile registers the handler again as it starts (the first few hundred
// do; by then every such static is made), so it runs before those that
// earlier compiles made.
void waitAtExitFirst() {
  static std::atomic<unsigned> Registered{0};
  if (Registered.fetch_add(1, std::memory_order_relaxed) < 256)
    std::atexit(exitHandler);
}

// Guards making the pool; held across fork() so that the child's copy is
// not left locked.
std::mutex &makeLock() {
  static std::mutex &M = *new std::mutex;
  return M;
}

// A fork()ed child has none of the parent's threads: the parent's pool, its
// queue and its running compiles are none of the child's (waiting for them
// hung the child's exit and jit_wait()). The pool is left as it was, never
// touched again; the child makes its own on its first compile.
void forgetPoolInChild() {
  Made.store(nullptr, std::memory_order_release);
  makeLock().unlock();
}

// Never destroyed (see CompilePool.h). What a compile uses is made before
// the exit handler is registered, so that it is destroyed after the handler
// has waited for the compiles.
CompilePool &pool() {
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    return *P;
  std::lock_guard<std::mutex> G(makeLock());
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    return *P;
  static bool First = true; // a forked child's pool registers nothing again
  if (First) {
    (void)cacheSettings();
    (void)dumpSettings();
    (void)jitSettings();
    (void)traceSetting();
    initCubinWriters();
    setStopCompilesAtExit(stopCompilePool);
    pthread_atfork([] { makeLock().lock(); }, [] { makeLock().unlock(); },
                   forgetPoolInChild);
  }
  auto *P = new CompilePool;
  Made.store(P, std::memory_order_release);
  if (First)
    std::atexit(exitHandler);
  First = false;
  return *P;
}

} // namespace

void startCompilePool(bool OnGpu, const std::string &Arch) {
  // The driver opens its PTX JIT at its first PTX load, on a worker:
  // opened first, its statics are destroyed after the pool has waited.
  if (OnGpu)
    (void)dlopen("libnvidia-ptxjitcompiler.so.1", RTLD_NOW | RTLD_LOCAL);
  // The first compile in a process made its target machine and LLVM's
  // passes first; the warm-up does that before the first launch.
  pool().queue(nullptr, [Arch] { warmUpJit(Arch); });
}

void queueCompile(const void *Owner, llvm::unique_function<void()> Run) {
  pool().queue(Owner, std::move(Run));
}

void waitForCompiles() {
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    P->waitAll();
}

void stopCompilePool() { exitHandler(); }

bool compilePoolClosed() {
  CompilePool *P = Made.load(std::memory_order_acquire);
  return P && P->exiting();
}

bool inCompileJob() { return InJob; }

void waitingForPtxas(bool Starts) {
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    P->waitingForPtxas(Starts);
}

void finishCompilesOf(const void *Owner) {
  if (CompilePool *P = Made.load(std::memory_order_acquire))
    P->finish(Owner);
}

} // namespace mstage::rt
