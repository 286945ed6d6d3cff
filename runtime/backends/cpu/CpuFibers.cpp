//===- CpuFibers.cpp - The threads of one block as fibers -----------------===//
#include "backends/cpu/CpuFibers.h"
#include "support/Settings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <boost/context/stack_traits.hpp>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <system_error>

namespace ctx = boost::context;

namespace mstage::rt {

std::size_t fiberStackBytes() { return cpuStackBytesSetting(); }

namespace {

// The fiber stacks of the whole process. Each is its own mapping with a
// guard page below (an overflow faults instead of overwriting another
// thread's stack), so a stack costs two of the process's vm.max_map_count
// memory mappings (65530 by default): 1024-thread blocks on 32 OS threads
// would take them all. Stacks are therefore shared by the OS threads, not
// kept by each, and at most a quarter of the mapping limit's worth is
// mapped: a block that would pass that cap waits until others give theirs
// back. A block waits only while others hold stacks, so it always runs.
class StackPool {
public:
  explicit StackPool(std::size_t Bytes)
      : Bytes(Bytes), Cap(std::max<std::size_t>(mapLimit() / 4, 1024)) {}

  // Fills Out with N stacks, mapping those the pool lacks. "" or why not.
  std::string take(unsigned N, std::vector<ctx::stack_context> &Out) {
    std::unique_lock<std::mutex> G(Lock);
    Returned.wait(G, [&] {
      return InUse == 0 || Free.size() + (Cap - std::min(Cap, Mapped)) >= N;
    });
    while (Out.size() < N && !Free.empty()) {
      Out.push_back(Free.back());
      Free.pop_back();
    }
    while (Out.size() < N) {
      ctx::stack_context S;
      if (std::string Why = map(S); !Why.empty()) {
        Why = "cannot map the stack of fiber " + std::to_string(Out.size()) +
              " of a block of " + std::to_string(N) + ": " + Why;
        Free.insert(Free.end(), Out.begin(), Out.end());
        Out.clear();
        return Why;
      }
      ++Mapped;
      Out.push_back(S);
    }
    InUse += N;
    return "";
  }

  void give(std::vector<ctx::stack_context> &Stacks) {
    {
      std::lock_guard<std::mutex> G(Lock);
      InUse -= Stacks.size();
      Free.insert(Free.end(), Stacks.begin(), Stacks.end());
    }
    Stacks.clear();
    Returned.notify_all();
  }

private:
  // One stack and its guard page, as boost's protected_fixedsize_stack maps
  // them, but with the reason when the mapping or the guard fails.
  std::string map(ctx::stack_context &S) {
    std::size_t Page = ctx::stack_traits::page_size();
    std::size_t Size = (Bytes + Page - 1) / Page * Page + Page;
    void *P = ::mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (P == MAP_FAILED)
      return whyNoMapping(errno);
    // The guard splits the mapping in two; this is where the mapping limit
    // is met first, as new stacks merge with the mapping beside them.
    if (::mprotect(P, Page, PROT_NONE) != 0) {
      int Errno = errno;
      ::munmap(P, Size);
      return whyNoMapping(Errno);
    }
    S.size = Size;
    S.sp = static_cast<char *>(P) + Size;
    return "";
  }

  // The limit that was met: the number of mappings or memory.
  std::string whyNoMapping(int Errno) {
    std::size_t Maps = mappingCount(), Limit = mapLimit();
    std::string Why =
        llvm::StringRef(
            std::error_code(Errno, std::generic_category()).message())
            .lower() +
        ": the process has " + std::to_string(Maps) +
        " memory mappings and vm.max_map_count allows " + std::to_string(Limit);
    if (Maps + 16 >= Limit)
      return Why + ", and a fiber stack takes 2 (the stack and its guard "
                   "page); raise vm.max_map_count (sysctl)";
    return Why + ", so memory ran out: each fiber stack is " +
           std::to_string(Bytes / 1024) +
           " KiB (MSTAGE_CPU_STACK_KB); lower it, or raise the memory limit "
           "(ulimit -v)";
  }

  // vm.max_map_count; Linux's default where it cannot be read.
  static std::size_t mapLimit() {
    auto Text =
        llvm::MemoryBuffer::getFileAsStream("/proc/sys/vm/max_map_count");
    unsigned long long N = 0;
    if (!Text ||
        llvm::StringRef((*Text)->getBuffer()).trim().getAsInteger(10, N))
      return 65530;
    return std::size_t(N);
  }

  // The lines of /proc/self/maps, read without allocating: no memory may
  // be left.
  static std::size_t mappingCount() {
    llvm::Expected<llvm::sys::fs::file_t> F =
        llvm::sys::fs::openNativeFileForRead("/proc/self/maps");
    if (!F) {
      llvm::consumeError(F.takeError());
      return 0;
    }
    std::size_t Lines = 0;
    char Buffer[4096];
    for (;;) {
      llvm::Expected<std::size_t> Read =
          llvm::sys::fs::readNativeFile(*F, Buffer);
      if (!Read) {
        llvm::consumeError(Read.takeError());
        break;
      }
      if (*Read == 0)
        break;
      Lines += std::count(Buffer, Buffer + *Read, '\n');
    }
    llvm::sys::fs::closeFile(*F);
    return Lines;
  }

  const std::size_t Bytes, Cap;
  std::mutex Lock;
  std::condition_variable Returned;
  std::vector<ctx::stack_context> Free;
  std::size_t Mapped = 0, InUse = 0;
};

StackPool &stackPool() {
  // Never destroyed: a worker may still run a block at exit().
  static StackPool *P = new StackPool(fiberStackBytes());
  return *P;
}

// The stack allocator of a block's fibers: takes from and returns to the
// stacks the block holds, which outlive the fibers (a finished fiber gives
// its stack back, and the next block's fiber takes it).
struct LeasedStack {
  std::vector<ctx::stack_context> *Lease;
  ctx::stack_context allocate() {
    ctx::stack_context S = Lease->back();
    Lease->pop_back();
    return S;
  }
  void deallocate(ctx::stack_context &S) noexcept { Lease->push_back(S); }
};

} // namespace

// "(x, y, z)" of a thread or block index.
static std::string indexText(const unsigned *I) {
  return "(" + std::to_string(I[0]) + ", " + std::to_string(I[1]) + ", " +
         std::to_string(I[2]) + ")";
}

FiberBlock::FiberBlock() = default;

FiberBlock::~FiberBlock() = default; // between blocks no fiber is alive

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
  WaitFile = nullptr;
  Diverged.clear();
  if (std::string Why = stackPool().take(N, Lease); !Why.empty())
    return Why;
  LeasedStack Alloc{&Lease};
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
    // Nothing here allocates: the stack is the lease's.
    S.Self = ctx::fiber(std::allocator_arg, Alloc,
                        [this, I, Invoke, Params](ctx::fiber &&Sched) {
                          Slots[I].Sched = std::move(Sched);
                          Invoke(Params);
                          return std::move(Slots[I].Sched);
                        });
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
  std::string Why;
  if (!Diverged.empty())
    Why = "in block " + indexText(Proto.Ctaid) + ", " + Diverged +
          "; every thread of a block that has not exited must reach the same "
          "barrier (on a GPU, as on the CPU without bounds checks, barriers "
          "in different places pair up silently)";
  if (Exited != N) {
    if (Why.empty())
      Why = deadlock(Proto);
    // Destroying a suspended fiber unwinds its stack (boost's forced_unwind),
    // so that the stacks can be used again.
    for (Slot &S : Slots)
      S.Self = ctx::fiber();
  }
  stackPool().give(Lease); // every fiber has ended and given its stack back
  return Why;
}

void FiberBlock::releaseBarrier() {
  // Stays put until every thread that waited has read it: the next barrier
  // cannot complete before they all arrive there.
  LastArrived = Arrived;
  Arrived = 0;
  WaitFile = nullptr;
  for (unsigned I = 0; I < Slots.size(); ++I)
    if (Slots[I].St == State::AtBarrier) {
      Slots[I].St = State::Ready;
      push(I);
    }
}

unsigned FiberBlock::barrier(CpuThread &T, const char *File, unsigned Line) {
  Slot &S = Slots[T.Linear];
  if (File && !WaitFile) {
    WaitFile = File;
    WaitLine = Line;
    WaitThread = T.Linear;
  } else if (File && Diverged.empty() &&
             (Line != WaitLine || std::strcmp(File, WaitFile) != 0)) {
    Diverged = "thread " + indexText(Slots[WaitThread].Ctx.Tid) +
               " waits at the barrier at " + WaitFile + ":" +
               std::to_string(WaitLine) + " and thread " + indexText(T.Tid) +
               " at the one at " + File + ":" + std::to_string(Line);
  }
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
