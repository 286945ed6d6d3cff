//===- CpuFibers.cpp - The threads of one block as fibers -----------------===//
#include "CpuFibers.h"

#include <boost/context/protected_fixedsize_stack.hpp>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace ctx = boost::context;

namespace mstage::rt {

std::size_t fiberStackBytes() {
  static const std::size_t Bytes = [] {
    const char *V = std::getenv("MSTAGE_CPU_STACK_KB");
    long KB = V && *V ? std::atol(V) : 0;
    return std::size_t(KB > 0 ? KB : 256) * 1024;
  }();
  return Bytes;
}

// Stacks outlive the fibers that use them: a finished fiber gives its stack
// back, and the next block's fiber takes it. protected_fixedsize_stack puts
// a guard page below each stack, so an overflow faults (SIGSEGV) instead of
// overwriting another thread's stack.
struct FiberBlock::StackPool {
  explicit StackPool(std::size_t Bytes) : Alloc(Bytes) {}
  ~StackPool() {
    for (ctx::stack_context &S : Free)
      Alloc.deallocate(S);
  }
  ctx::protected_fixedsize_stack Alloc;
  std::vector<ctx::stack_context> Free;
};

namespace {
// The stack allocator that a fiber keeps: takes from and returns to a pool.
struct PooledStack {
  std::vector<ctx::stack_context> *Free;
  ctx::protected_fixedsize_stack *Alloc;
  ctx::stack_context allocate() {
    if (Free->empty())
      return Alloc->allocate();
    ctx::stack_context S = Free->back();
    Free->pop_back();
    return S;
  }
  void deallocate(ctx::stack_context &S) noexcept { Free->push_back(S); }
};
} // namespace

FiberBlock::FiberBlock(std::size_t StackBytes)
    : Stacks(std::make_unique<StackPool>(StackBytes)) {}

FiberBlock::~FiberBlock() {
  Slots.clear(); // every fiber has finished; their stacks are in the pool
}

void FiberBlock::push(unsigned I) {
  Queue[(Head + Count++) % Queue.size()] = I;
}

void FiberBlock::yield(Slot &S) { S.Sched = std::move(S.Sched).resume(); }

std::string FiberBlock::run(mstage_invoke_fn Invoke, void *const *Params,
                            const CpuThread &Proto) {
  unsigned N = Proto.BlockThreads;
  if (Slots.size() != N) {
    Slots.clear();
    Slots.resize(N);
    Queue.assign(N, 0);
  }
  Head = Count = 0;
  Arrived = Exited = AtActiveMask = 0;
  PooledStack Alloc{&Stacks->Free, &Stacks->Alloc};
  unsigned NX = Proto.Ntid[0], NY = Proto.Ntid[1];
  for (unsigned I = 0; I < N; ++I) {
    Slot &S = Slots[I];
    S.Ctx = Proto;
    S.Ctx.Tid[0] = I % NX;
    S.Ctx.Tid[1] = I / NX % NY;
    S.Ctx.Tid[2] = I / (NX * NY);
    S.Ctx.Linear = I;
    S.Ctx.Fibers = this;
    S.St = State::Ready;
    S.Call = nullptr;
    try {
      S.Self = ctx::fiber(std::allocator_arg, Alloc,
                          [this, I, Invoke, Params](ctx::fiber &&Sched) {
                            Slots[I].Sched = std::move(Sched);
                            Invoke(Params);
                            return std::move(Slots[I].Sched);
                          });
    } catch (const std::bad_alloc &) {
      for (unsigned J = 0; J < I; ++J)
        Slots[J].Self = ctx::fiber(); // not started: nothing to unwind
      return "cannot allocate the stacks of " + std::to_string(N) +
             " fibers of " + std::to_string(fiberStackBytes() / 1024) +
             " KiB (MSTAGE_CPU_STACK_KB)";
    }
    push(I);
  }
  CpuThread *Outer = CurrentCpuThread;
  while (Count) {
    unsigned I = Queue[Head];
    Head = (Head + 1) % Queue.size();
    --Count;
    Slot &S = Slots[I];
    S.St = State::Running;
    CurrentCpuThread = &S.Ctx;
    S.Self = std::move(S.Self).resume();
    CurrentCpuThread = Outer;
    if (!S.Self) {
      S.St = State::Done;
      threadExited(I);
    }
  }
  if (Exited == N)
    return "";
  std::string Why = deadlock(Proto);
  // Destroying a suspended fiber unwinds its stack (boost's forced_unwind),
  // so that the stacks can be used again.
  for (Slot &S : Slots)
    S.Self = ctx::fiber();
  return Why;
}

void FiberBlock::releaseBarrier() {
  // Stays put until every thread that waited has read it: the next barrier
  // cannot complete before they all arrive there.
  LastArrived = Arrived;
  Arrived = 0;
  for (unsigned I = 0; I < Slots.size(); ++I)
    if (Slots[I].St == State::AtBarrier) {
      Slots[I].St = State::Ready;
      push(I);
    }
}

unsigned FiberBlock::barrier(CpuThread &T) {
  Slot &S = Slots[T.Linear];
  if (++Arrived + Exited == Slots.size()) {
    releaseBarrier(); // the last to arrive goes on
    return LastArrived;
  }
  S.St = State::AtBarrier;
  if (AtActiveMask)
    tryCompleteActiveMask(T.Linear, /*Runner=*/false);
  yield(S);
  return LastArrived;
}

void FiberBlock::tryCompleteActiveMask(unsigned I, bool Runner) {
  unsigned Base = I & ~31u;
  unsigned Here = 0;
  for (unsigned L = 0; L < 32 && Base + L < Slots.size(); ++L) {
    State St = Slots[Base + L].St;
    if (St == State::Ready || (St == State::Running && Base + L != I))
      return; // a lane that may still arrive
    if (St == State::AtActiveMask || (St == State::Running && Runner))
      Here |= 1u << L;
  }
  if (!Here)
    return;
  for (unsigned L = 0; L < 32; ++L)
    if (Here >> L & 1) {
      Slot &S = Slots[Base + L];
      S.ActiveMask = Here;
      if (S.St == State::AtActiveMask) {
        --AtActiveMask;
        S.St = State::Ready;
        push(Base + L);
      }
    }
}

unsigned FiberBlock::activeMask(CpuThread &T) {
  Slot &S = Slots[T.Linear];
  // Running: if every other lane has stopped, this completes at once.
  S.ActiveMask = 0;
  tryCompleteActiveMask(T.Linear, /*Runner=*/true);
  if (S.ActiveMask)
    return S.ActiveMask;
  S.St = State::AtActiveMask;
  ++AtActiveMask;
  yield(S);
  return S.ActiveMask;
}

bool FiberBlock::tryCompleteWarp(unsigned I, bool Runner) {
  unsigned Base = I & ~31u, Lane = I & 31;
  unsigned Mask = Slots[I].Call->Mask | 1u << Lane;
  unsigned Present = 0;
  WarpCall *Calls[32] = {};
  for (unsigned L = 0; L < 32; ++L) {
    if (!(Mask >> L & 1) || Base + L >= Slots.size())
      continue;
    const Slot &Other = Slots[Base + L];
    if (Other.St == State::Done)
      continue; // exited lanes are not waited for
    if (Other.St != State::AtWarp)
      return false;
    Present |= 1u << L;
    Calls[L] = Other.Call;
  }
  completeWarpCalls(Calls, Present);
  for (unsigned L = 0; L < 32; ++L)
    if (Present >> L & 1) {
      Slot &Other = Slots[Base + L];
      Other.Call = nullptr;
      if (Runner && L == Lane) {
        Other.St = State::Running;
      } else {
        Other.St = State::Ready;
        push(Base + L);
      }
    }
  return true;
}

int FiberBlock::warp(CpuThread &T, WarpCall &C) {
  Slot &S = Slots[T.Linear];
  S.Call = &C;
  S.St = State::AtWarp;
  if (!tryCompleteWarp(T.Linear, /*Runner=*/true)) {
    if (AtActiveMask)
      tryCompleteActiveMask(T.Linear, /*Runner=*/false);
    yield(S);
  }
  return C.Result;
}

void FiberBlock::threadExited(unsigned I) {
  ++Exited;
  if (Arrived && Arrived + Exited == Slots.size())
    releaseBarrier();
  // Lanes of its warp may have waited for it.
  unsigned Base = I & ~31u;
  if (AtActiveMask)
    tryCompleteActiveMask(I, /*Runner=*/false);
  for (unsigned L = 0; L < 32 && Base + L < Slots.size(); ++L)
    if (Slots[Base + L].St == State::AtWarp)
      tryCompleteWarp(Base + L, /*Runner=*/false);
}

std::string FiberBlock::deadlock(const CpuThread &Proto) {
  unsigned AtBarrier = 0, AtWarp = 0;
  std::string Lanes;
  for (unsigned I = 0; I < Slots.size(); ++I) {
    if (Slots[I].St == State::AtBarrier)
      ++AtBarrier;
    if (Slots[I].St == State::AtActiveMask)
      ++AtWarp;
    if (Slots[I].St == State::AtWarp && Slots[I].Call) {
      if (++AtWarp <= 4) {
        char Mask[16];
        std::snprintf(Mask, sizeof(Mask), "0x%08x", Slots[I].Call->Mask);
        Lanes += std::string(AtWarp > 1 ? ", " : " (thread ") +
                 std::to_string(I) + " with mask " + Mask;
      }
    }
  }
  if (AtWarp)
    Lanes += AtWarp > 4 ? ", ...)" : ")";
  return "deadlocked in block (" + std::to_string(Proto.Ctaid[0]) + ", " +
         std::to_string(Proto.Ctaid[1]) + ", " +
         std::to_string(Proto.Ctaid[2]) + "): " + std::to_string(AtBarrier) +
         " threads wait at a barrier (Block::synchronize), " +
         std::to_string(AtWarp) + " at a warp operation" + Lanes + ", " +
         std::to_string(Exited) +
         " have exited; a barrier must be reached by every thread of the "
         "block that has not exited, and a warp operation by every lane of "
         "its mask";
}

} // namespace mstage::rt
