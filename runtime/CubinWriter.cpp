//===- CubinWriter.cpp - ptxas cubins for the disk cache, off the launch --===//
#include "CubinWriter.h"
#include "CudaTools.h"
#include "DiskCache.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace mstage::rt {

std::string assembleWithPtxas(StringRef Kernel, StringRef PTX, StringRef Arch) {
  static std::atomic<bool> Failed{false};
  if (ptxasPath().empty() || Failed.load(std::memory_order_relaxed))
    return "";
  auto Cubin = assembleCubin(PTX, Arch);
  if (Cubin)
    return std::move(*Cubin);
  std::string Why = toString(Cubin.takeError());
  static std::once_flag Warned;
  std::call_once(Warned, [&] {
    errs() << "mstage: kernel '" << Kernel << "': " << Why
           << "\nmstage: kernels are loaded as PTX from now on (set "
              "MSTAGE_PTXAS to another ptxas, or to off)\n";
  });
  Failed = true;
  return "";
}

namespace {

struct Job {
  CacheKey Key;
  std::string Kernel, PTX, Arch;
};

// A few threads that run ptxas and write entries. Made on first use, after
// the settings they read, so that it is destroyed (and waits) before them.
class Writers {
public:
  Writers() : Owner(getpid()) {
    (void)ptxasPath();
    (void)cacheSettings();
  }
  ~Writers() {
    if (getpid() != Owner)
      return; // a forked child: the workers are the parent's
    {
      std::unique_lock<std::mutex> L(Lock);
      Stopping = true;
    }
    Wake.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  void add(Job J) {
    {
      std::lock_guard<std::mutex> L(Lock);
      Queue.push_back(std::move(J));
      ++Pending;
      unsigned Max =
          std::clamp(std::thread::hardware_concurrency() / 2, 1u, 4u);
      if (Threads.size() < std::min<size_t>(Max, Pending))
        Threads.emplace_back([this] { work(); });
    }
    Wake.notify_one();
  }

  void waitIdle() {
    std::unique_lock<std::mutex> L(Lock);
    Idle.wait(L, [&] { return Pending == 0; });
  }

private:
  void work() {
    std::unique_lock<std::mutex> L(Lock);
    for (;;) {
      Wake.wait(L, [&] { return Stopping || !Queue.empty(); });
      if (Queue.empty())
        return; // stopping, and nothing is left
      Job J = std::move(Queue.front());
      Queue.pop_front();
      L.unlock();
      CachedCode Code;
      Code.Cubin = assembleWithPtxas(J.Kernel, J.PTX, J.Arch);
      Code.PTX = std::move(J.PTX);
      storeInDiskCache(J.Key, Code);
      L.lock();
      if (--Pending == 0)
        Idle.notify_all();
    }
  }

  const pid_t Owner;
  std::mutex Lock;
  std::condition_variable Wake, Idle;
  std::deque<Job> Queue;
  size_t Pending = 0; // queued or running
  bool Stopping = false;
  std::vector<std::thread> Threads;
};

Writers &writers() {
  static Writers W;
  return W;
}

} // namespace

void storeWithCubinLater(const CacheKey &Key, std::string Kernel,
                         std::string PTX, std::string Arch) {
  writers().add({Key, std::move(Kernel), std::move(PTX), std::move(Arch)});
}

void waitForCubinWriters() { writers().waitIdle(); }

} // namespace mstage::rt
