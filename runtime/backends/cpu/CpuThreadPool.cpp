//===- CpuThreadPool.cpp - The host threads that run CPU launches ---------===//
#include "backends/cpu/CpuThreadPool.h"
#include "support/Settings.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace mstage::rt {

unsigned cpuThreadCount() {
  static const unsigned N =
      cpuThreadsSetting() ? cpuThreadsSetting()
                          : std::max(1u, std::thread::hardware_concurrency());
  return N;
}

namespace {

struct Job {
  CpuTasks *Tasks;
  uint64_t Total, Chunk;
  std::atomic<uint64_t> Next{0};
  unsigned Workers = 0; // pool workers inside run(), under the pool's lock
};

// Runs chunks of J until none are left.
void work(Job &J) {
  for (;;) {
    uint64_t First = J.Next.fetch_add(J.Chunk, std::memory_order_relaxed);
    if (First >= J.Total)
      return;
    uint64_t Last = std::min(J.Total, First + J.Chunk);
    for (uint64_t I = First; I < Last; ++I)
      J.Tasks->run(I);
  }
}

class Pool {
public:
  explicit Pool(unsigned Workers) {
    for (unsigned I = 0; I < Workers; ++I)
      Threads.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> G(Lock);
      Stopping = true;
    }
    Wake.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  void run(Job &J) {
    if (!Threads.empty() && J.Total > J.Chunk) {
      {
        std::lock_guard<std::mutex> G(Lock);
        Jobs.push_back(&J);
      }
      Wake.notify_all();
    }
    work(J);
    std::unique_lock<std::mutex> G(Lock);
    Jobs.erase(std::remove(Jobs.begin(), Jobs.end(), &J), Jobs.end());
    // Workers that took part may still run their last chunk.
    Finished.wait(G, [&] { return J.Workers == 0; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> G(Lock);
    for (;;) {
      Wake.wait(G, [&] { return Stopping || !Jobs.empty(); });
      if (Stopping)
        return;
      Job *J = Jobs.front();
      ++J->Workers;
      G.unlock();
      work(*J);
      G.lock();
      // Nothing is left to hand out: no other worker needs to see it.
      Jobs.erase(std::remove(Jobs.begin(), Jobs.end(), J), Jobs.end());
      if (--J->Workers == 0)
        Finished.notify_all();
    }
  }

  std::mutex Lock;
  std::condition_variable Wake, Finished;
  std::deque<Job *> Jobs;
  std::vector<std::thread> Threads;
  bool Stopping = false;
};

Pool &pool() {
  // Never destroyed: a launch from a static destructor, or a worker still
  // inside a kernel at exit(), must not meet a joined pool.
  static Pool *P = new Pool(cpuThreadCount() - 1);
  return *P;
}

} // namespace

void runOnCpuThreads(uint64_t NumTasks, CpuTasks &Tasks) {
  if (NumTasks == 0)
    return;
  Job J;
  J.Tasks = &Tasks;
  J.Total = NumTasks;
  // About 16 chunks per thread: few atomic operations for many small blocks,
  // and still a balanced load when blocks differ in cost.
  J.Chunk = std::max<uint64_t>(1, NumTasks / (uint64_t(cpuThreadCount()) * 16));
  pool().run(J);
}

} // namespace mstage::rt
