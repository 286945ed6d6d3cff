//===- CpuThreadPool.h - The host threads that run CPU launches -----------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUTHREADPOOL_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUTHREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace mstage::rt {

// How many OS threads run a CPU launch's blocks, the launching thread
// included: MSTAGE_CPU_THREADS, else the host's hardware threads.
unsigned cpuThreadCount();

// Calls Task(I) for every I in [0, NumTasks), spread over cpuThreadCount()
// threads: the pool's workers and the calling thread, which takes part, so a
// launch progresses even while the workers are busy with another thread's
// launch. Tasks are handed out in chunks, in increasing order. Returns when
// every task has run.
class CpuTasks {
public:
  virtual ~CpuTasks() = default;
  virtual void run(uint64_t Task) = 0;
};
void runOnCpuThreads(uint64_t NumTasks, CpuTasks &Tasks);

} // namespace mstage::rt

#endif
