//===- CpuThread.h - What the builtins see of a thread run on the CPU -----===//
//
// The CPU back end runs each GPU thread as a call of the kernel's host body.
// The builtins of include/mstage/builtins.h
// (runtime/backends/cpu/HostBuiltins.cpp) find the thread they are called for
// through CurrentCpuThread, which the block executor sets before it runs or
// resumes a thread. Outside a CPU launch it is null, and the builtins describe
// a single thread of a single block.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUTHREAD_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUTHREAD_H

#include <cstdint>

namespace mstage::rt {

class FiberBlock;

struct CpuThread {
  unsigned Tid[3] = {0, 0, 0};
  unsigned Ntid[3] = {1, 1, 1};
  unsigned Ctaid[3] = {0, 0, 0};
  unsigned Nctaid[3] = {1, 1, 1};
  unsigned Linear = 0; // in the block: x fastest, then y, then z (as CUDA)
  unsigned BlockThreads = 1;
  void *Shared = nullptr; // the block's dynamic shared memory
  unsigned SharedBytes = 0;
  // The block's fiber scheduler; null when the block runs as a plain loop,
  // which it does only for kernels that never synchronize.
  FiberBlock *Fibers = nullptr;
  const char *KernelName = "";
  // The launch's grid barrier word, for a kernel that synchronizes its grid;
  // its blocks then run at once, each on its own OS thread (CpuLaunch.cpp).
  unsigned *GridBarrier = nullptr;
};

// Read by the builtins at every index and barrier: a TLS descriptor's read
// where the compiler has them (runtime/CMakeLists.txt), not initial-exec,
// since libmstage_rt.so may be loaded after the program started.
extern thread_local CpuThread *CurrentCpuThread;

} // namespace mstage::rt

#endif
