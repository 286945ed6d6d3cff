//===- CpuFibers.h - The threads of one block as fibers -------------------===//
//
// A block whose kernel synchronizes (a barrier or a warp operation) runs each
// of its threads as a fiber (Boost.Context) on the calling OS thread. A
// thread runs until it reaches a barrier or a warp operation; the last thread
// to arrive completes it and goes on, the others are resumed by the
// scheduler. Threads that have exited count as arrived, as on the GPU.
// Nothing is preempted: a thread that spins on a value that another thread
// of its block writes never lets that thread run.
//
// One FiberBlock per OS thread, reused for every block it runs. The fiber
// stacks (MSTAGE_CPU_STACK_KB each, with a guard page below) belong to the
// process: a block takes as many as it has threads and gives them back when
// it ends, so the stacks mapped follow the blocks that run at once, not the
// OS threads that ever ran one (CpuFibers.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_BACKENDS_CPU_CPUFIBERS_H
#define MSTAGE_RUNTIME_BACKENDS_CPU_CPUFIBERS_H

#include "backends/cpu/CpuThread.h"
#include "backends/cpu/CpuWarp.h"

#include "mstage/abi.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mstage::rt {

class FiberBlock {
public:
  FiberBlock();
  ~FiberBlock();
  FiberBlock(const FiberBlock &) = delete;
  FiberBlock &operator=(const FiberBlock &) = delete;

  // Runs every thread of the block that Proto describes (its Tid and Linear
  // are set per thread). Returns "" or why the block could not finish.
  std::string run(mstage_invoke_fn Invoke, void *const *Params,
                  const CpuThread &Proto);

  // Called by the builtins from inside a thread of this block. A barrier
  // returns how many threads arrived (the others exited), as bar.red.popc.
  // Barriers in different places pair up, as bar.sync 0 does on the GPU;
  // a checked barrier (bounds checks on) gives its place, File and Line,
  // and threads that meet at checked barriers of different places make the
  // block fail once it has run.
  unsigned barrier(CpuThread &T, const char *File = nullptr, unsigned Line = 0);
  int warp(CpuThread &T, WarpCall &C);
  // CUDA's activemask: the lanes of T's warp that are here together. T waits
  // until every other lane of its warp has exited or stopped (here, or at
  // another barrier or warp operation: diverged); the result is the lanes
  // that stopped here.
  unsigned activeMask(CpuThread &T);

private:
  enum class State : uint8_t {
    Ready,
    Running,
    AtBarrier,
    AtWarp,
    AtActiveMask,
    Done
  };
  struct Slot {
    CpuThread Ctx;
    boost::context::fiber Self;  // resumes this thread
    boost::context::fiber Sched; // while it runs: resumes the scheduler
    State St = State::Ready;
    WarpCall *Call = nullptr; // while AtWarp
    unsigned ActiveMask = 0;  // activemask's result
  };

  void yield(Slot &S);
  void push(unsigned I);
  void releaseBarrier();
  // Completes the warp operation that thread I waits at when every lane it
  // names has arrived or exited. Runner: I is the running thread (which then
  // goes on); else I is woken with the others.
  bool tryCompleteWarp(unsigned I, bool Runner);
  void threadExited(unsigned I);
  // Completes the activemask that lanes of thread I's warp wait at, once no
  // lane of the warp can still arrive. Runner as for tryCompleteWarp.
  void tryCompleteActiveMask(unsigned I, bool Runner);
  std::string deadlock(const CpuThread &Proto);

  std::vector<boost::context::stack_context> Lease; // the block's stacks
  std::vector<Slot> Slots;
  std::vector<unsigned> Queue; // ready threads, a ring of Slots.size()
  std::size_t Head = 0, Count = 0;
  unsigned Arrived = 0, Exited = 0;
  unsigned LastArrived = 0; // at the barrier released last
  // The place of the first checked barrier that a thread waits at since the
  // last release, and that thread.
  const char *WaitFile = nullptr;
  unsigned WaitLine = 0, WaitThread = 0;
  std::string Diverged;      // the first two places that differed, for run()
  unsigned AtActiveMask = 0; // threads waiting in activeMask()
};

// MSTAGE_CPU_STACK_KB (default 256): each fiber's stack.
std::size_t fiberStackBytes();

} // namespace mstage::rt

#endif
