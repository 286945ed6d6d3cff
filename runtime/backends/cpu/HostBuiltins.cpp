//===- HostBuiltins.cpp - Host definitions of the device builtins ---------===//
//
// The host copy of every kernel references the builtins of
// include/mstage/builtins.h. Inside a launch on the CPU back end they answer
// for the thread being run (CpuThread.h): its indices, its block's shared
// memory, and the block's barrier and warp operations (CpuFibers.h).
// Called anywhere else (plain host code) they describe a single thread of a
// single block, with 48 KiB of dynamic shared memory.
//
// A failed check prints what the device would, then the kernel, block and
// thread when a CPU launch runs it, and aborts the process, as a failed
// assert in host code does.
//
//===----------------------------------------------------------------------===//
// The definitions read the current launch's thread, which the runtime changes
// between launches: declared const here, calls could be merged across that.
#define MSTAGE_LAUNCH_CONST
#include "mstage/builtins.h"
#include "mstage/ldg.hpp"

#include "backends/cpu/CpuFibers.h"
#include "backends/cpu/CpuSharedArrays.h"
#include "backends/cpu/CpuThread.h"
#include "backends/cpu/CpuWarp.h"
#include "backends/cpu/CpuWmma.h"
#include "support/Export.h"
#include "transforms/DeviceBuiltins.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace mstage::rt;

namespace {

// The thread outside any launch: one thread of one block.
// Constant-initialized: static constructors may call builtins too.
alignas(16) unsigned char OutsideShared[48 * 1024];
const CpuThread Outside{
    {0, 0, 0}, {1, 1, 1}, {0, 0, 0},     {1, 1, 1},
    0,         1,         OutsideShared, sizeof(OutsideShared),
    nullptr,   ""};

inline const CpuThread &current() {
  const CpuThread *T = CurrentCpuThread;
  return T ? *T : Outside;
}

void printWhere(const CpuThread &T) {
  if (!CurrentCpuThread)
    return;
  std::fprintf(stderr,
               "mstage: in kernel '%s' on the CPU, block (%u, %u, %u), thread "
               "(%u, %u, %u)\n",
               T.KernelName, T.Ctaid[0], T.Ctaid[1], T.Ctaid[2], T.Tid[0],
               T.Tid[1], T.Tid[2]);
}

// A synchronizing builtin where the block runs without fibers: only a block
// of one thread does that on purpose; anything else is a wrong analysis of
// the kernel, which must not pass silently.
[[noreturn]] void noFibers(const CpuThread &T, const char *What) {
  std::fprintf(stderr,
               "mstage: internal error: kernel '%s' called %s, but its blocks "
               "run without fibers on the CPU; MSTAGE_CPU_FIBERS=always works "
               "around this\n",
               T.KernelName, What);
  std::abort();
}

int warpCall(WarpCall C, const char *What) {
  CpuThread *T = CurrentCpuThread;
  if (T && T->Fibers)
    return T->Fibers->warp(*T, C);
  if (T && T->BlockThreads > 1)
    noFibers(*T, What);
  // One lane alone: the collective of a warp of one.
  WarpCall *Lanes[32] = {};
  unsigned Lane = T ? T->Linear & 31 : 0;
  Lanes[Lane] = &C;
  completeWarpCalls(Lanes, 1u << Lane);
  return C.Result;
}

// A load of T from P, of any alignment.
template <class T> T loadChunk(const void *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

// atomicInc's and atomicDec's compare-and-swap loop, relaxed as CUDA's.
template <class Next> unsigned atomicUpdate(unsigned *P, Next Step) {
  unsigned Old = __atomic_load_n(P, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(P, &Old, Step(Old), true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
  return Old;
}

// A warp reduction of Op over the lanes of Mask.
int warpReduce(WarpReduction Op, unsigned Mask, int Value) {
  return warpCall({WarpOp::Reduce, Mask, Value, int(Op)}, "a warp reduction");
}

// Tensor-core tiles (CpuWmma.h): the lane's 8 elements of the tile, in row
// order; each element of A and B is 2 bytes.
template <class T>
void wmmaMove(T *Frag, T *Tile, unsigned Ldm, int ColMajor, bool Load) {
  unsigned Lane = current().Linear & 31;
  for (unsigned J = 0; J < WmmaLaneElements; ++J) {
    unsigned Row, Col;
    wmmaElement(Lane, J, Row, Col);
    T &Element = Tile[ColMajor ? Col * Ldm + Row : Row * Ldm + Col];
    if (Load)
      Frag[J] = Element;
    else
      Element = Frag[J];
  }
}
} // namespace

extern "C" {
MSTAGE_EXPORT unsigned __mstage_tid_x(void) { return current().Tid[0]; }
MSTAGE_EXPORT unsigned __mstage_tid_y(void) { return current().Tid[1]; }
MSTAGE_EXPORT unsigned __mstage_tid_z(void) { return current().Tid[2]; }
MSTAGE_EXPORT unsigned __mstage_ntid_x(void) { return current().Ntid[0]; }
MSTAGE_EXPORT unsigned __mstage_ntid_y(void) { return current().Ntid[1]; }
MSTAGE_EXPORT unsigned __mstage_ntid_z(void) { return current().Ntid[2]; }
MSTAGE_EXPORT unsigned __mstage_ctaid_x(void) { return current().Ctaid[0]; }
MSTAGE_EXPORT unsigned __mstage_ctaid_y(void) { return current().Ctaid[1]; }
MSTAGE_EXPORT unsigned __mstage_ctaid_z(void) { return current().Ctaid[2]; }
MSTAGE_EXPORT unsigned __mstage_nctaid_x(void) { return current().Nctaid[0]; }
MSTAGE_EXPORT unsigned __mstage_nctaid_y(void) { return current().Nctaid[1]; }
MSTAGE_EXPORT unsigned __mstage_nctaid_z(void) { return current().Nctaid[2]; }
MSTAGE_EXPORT void __mstage_barrier(void) {
  CpuThread *T = CurrentCpuThread;
  if (T && T->Fibers)
    T->Fibers->barrier(*T);
  else if (T && T->BlockThreads > 1)
    noFibers(*T, "a barrier (Block::synchronize)");
}
MSTAGE_EXPORT void *__mstage_shared_base(void) { return current().Shared; }
MSTAGE_EXPORT unsigned __mstage_dynamic_shared_size(void) {
  return current().SharedBytes;
}
MSTAGE_EXPORT void *__mstage_shared_array(unsigned long long Bytes,
                                          unsigned Align, const char *File,
                                          unsigned Line, unsigned Column,
                                          unsigned Site) {
  if (void *P = cpuSharedArray(Bytes, Align, File, Line, Column, Site))
    return P;
  std::fprintf(stderr,
               "%s:%u: mstage: cannot allocate the %llu bytes of a "
               "shared_array on the CPU\n",
               File, Line, Bytes);
  printWhere(current());
  std::abort();
}
MSTAGE_EXPORT void __mstage_check_bounds(long long Index,
                                         unsigned long long Size,
                                         const char *What, const char *File,
                                         unsigned Line, const char *Function) {
  if (static_cast<unsigned long long>(Index) < Size)
    return;
  std::fprintf(stderr, mstage::BoundsCheckFormat, File, Line, Function, Index,
               What, Size);
  printWhere(current());
  std::abort();
}
MSTAGE_EXPORT void __mstage_check_shared(unsigned long long Needed,
                                         unsigned long long Available,
                                         const char *File, unsigned Line,
                                         const char *Function) {
  if (Needed <= Available)
    return;
  std::fprintf(stderr, mstage::SharedCheckFormat, File, Line, Function, Needed,
               Available);
  printWhere(current());
  std::abort();
}
// Counts the threads that arrive, as bar.red.popc does on the device; the
// place lets the CPU also tell threads at different barriers.
MSTAGE_EXPORT void __mstage_check_barrier(const char *File, unsigned Line,
                                          const char *Function) {
  CpuThread *T = CurrentCpuThread;
  if (!T || !T->Fibers) {
    __mstage_barrier();
    return;
  }
  unsigned Arrived = T->Fibers->barrier(*T, File, Line);
  if (Arrived == T->BlockThreads)
    return;
  std::fprintf(stderr, mstage::BarrierCheckFormat, File, Line, Function,
               Arrived, T->BlockThreads);
  printWhere(*T);
  std::abort();
}
// Lanes are numbered within the block's linear thread index, 32 to a warp.
MSTAGE_EXPORT unsigned __mstage_lane_id(void) { return current().Linear & 31; }
MSTAGE_EXPORT unsigned __mstage_activemask(void) {
  CpuThread *T = CurrentCpuThread;
  if (T && T->Fibers)
    return T->Fibers->activeMask(*T);
  if (T && T->BlockThreads > 1)
    noFibers(*T, "activemask");
  return 1u << (T ? T->Linear & 31 : 0);
}
MSTAGE_EXPORT void __mstage_syncwarp(unsigned Mask) {
  warpCall({WarpOp::Sync, Mask}, "a warp sync");
}
MSTAGE_EXPORT unsigned __mstage_ballot(unsigned Mask, int Pred) {
  return unsigned(warpCall({WarpOp::Ballot, Mask, Pred}, "a warp ballot"));
}
MSTAGE_EXPORT int __mstage_any(unsigned Mask, int Pred) {
  return warpCall({WarpOp::Any, Mask, Pred}, "a warp vote");
}
MSTAGE_EXPORT int __mstage_all(unsigned Mask, int Pred) {
  return warpCall({WarpOp::All, Mask, Pred}, "a warp vote");
}
MSTAGE_EXPORT int __mstage_shfl_i32(unsigned Mask, int Value, int Src,
                                    int Width) {
  return warpCall({WarpOp::Shfl, Mask, Value, Src, Width}, "a warp shuffle");
}
MSTAGE_EXPORT int __mstage_shfl_up_i32(unsigned Mask, int Value, unsigned Delta,
                                       int Width) {
  return warpCall({WarpOp::ShflUp, Mask, Value, int(Delta), Width},
                  "a warp shuffle");
}
MSTAGE_EXPORT int __mstage_shfl_down_i32(unsigned Mask, int Value,
                                         unsigned Delta, int Width) {
  return warpCall({WarpOp::ShflDown, Mask, Value, int(Delta), Width},
                  "a warp shuffle");
}
MSTAGE_EXPORT int __mstage_shfl_xor_i32(unsigned Mask, int Value, int LaneMask,
                                        int Width) {
  return warpCall({WarpOp::ShflXor, Mask, Value, LaneMask, Width},
                  "a warp shuffle");
}
MSTAGE_EXPORT unsigned __mstage_match_any_i32(unsigned Mask, unsigned Value) {
  return unsigned(
      warpCall({WarpOp::MatchAny, Mask, 0, 0, 32, Value}, "a warp match"));
}
MSTAGE_EXPORT unsigned __mstage_match_any_i64(unsigned Mask,
                                              unsigned long long Value) {
  return unsigned(
      warpCall({WarpOp::MatchAny, Mask, 0, 0, 32, Value}, "a warp match"));
}
MSTAGE_EXPORT unsigned __mstage_match_all_i32(unsigned Mask, unsigned Value,
                                              int *Pred) {
  unsigned Lanes = unsigned(
      warpCall({WarpOp::MatchAll, Mask, 0, 0, 32, Value}, "a warp match"));
  *Pred = Lanes != 0;
  return Lanes;
}
MSTAGE_EXPORT unsigned
__mstage_match_all_i64(unsigned Mask, unsigned long long Value, int *Pred) {
  unsigned Lanes = unsigned(
      warpCall({WarpOp::MatchAll, Mask, 0, 0, 32, Value}, "a warp match"));
  *Pred = Lanes != 0;
  return Lanes;
}
MSTAGE_EXPORT unsigned __mstage_redux_add(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::Add, Mask, int(Value)));
}
MSTAGE_EXPORT int __mstage_redux_min(unsigned Mask, int Value) {
  return warpReduce(WarpReduction::Min, Mask, Value);
}
MSTAGE_EXPORT int __mstage_redux_max(unsigned Mask, int Value) {
  return warpReduce(WarpReduction::Max, Mask, Value);
}
MSTAGE_EXPORT unsigned __mstage_redux_umin(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::UMin, Mask, int(Value)));
}
MSTAGE_EXPORT unsigned __mstage_redux_umax(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::UMax, Mask, int(Value)));
}
MSTAGE_EXPORT unsigned __mstage_redux_and(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::And, Mask, int(Value)));
}
MSTAGE_EXPORT unsigned __mstage_redux_or(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::Or, Mask, int(Value)));
}
MSTAGE_EXPORT unsigned __mstage_redux_xor(unsigned Mask, unsigned Value) {
  return unsigned(warpReduce(WarpReduction::Xor, Mask, int(Value)));
}
// Asynchronous copies land at once on the host: the wait that follows has
// nothing to wait for.
MSTAGE_EXPORT void __mstage_cp_async_4(void *Dst, const void *Src) {
  std::memcpy(Dst, Src, 4);
}
MSTAGE_EXPORT void __mstage_cp_async_8(void *Dst, const void *Src) {
  std::memcpy(Dst, Src, 8);
}
MSTAGE_EXPORT void __mstage_cp_async_16(void *Dst, const void *Src) {
  std::memcpy(Dst, Src, 16);
}
MSTAGE_EXPORT void __mstage_cp_async_commit(void) {}
MSTAGE_EXPORT void __mstage_cp_async_wait(unsigned) {}
MSTAGE_EXPORT void __mstage_wmma_load(void *Frag, const void *Src, unsigned Ldm,
                                      int, int, int ColMajor) {
  wmmaMove(static_cast<uint16_t *>(Frag),
           const_cast<uint16_t *>(static_cast<const uint16_t *>(Src)), Ldm,
           ColMajor, /*Load=*/true);
}
MSTAGE_EXPORT void __mstage_wmma_load_c(float *Frag, const float *Src,
                                        unsigned Ldm, int ColMajor) {
  wmmaMove(Frag, const_cast<float *>(Src), Ldm, ColMajor, /*Load=*/true);
}
MSTAGE_EXPORT void __mstage_wmma_store_d(float *Dst, const float *Frag,
                                         unsigned Ldm, int ColMajor) {
  wmmaMove(const_cast<float *>(Frag), Dst, Ldm, ColMajor, /*Load=*/false);
}
MSTAGE_EXPORT void __mstage_wmma_mma(float *D, const void *A, const void *B,
                                     const float *C, int Bf16, int, int) {
  WarpCall Call{WarpOp::Mma, 0xffffffffu, 0, Bf16};
  Call.Fragments[0] = D;
  Call.Fragments[1] = const_cast<void *>(A);
  Call.Fragments[2] = const_cast<void *>(B);
  Call.Fragments[3] = const_cast<float *>(C);
  warpCall(Call, "a warp's mma");
}
// Warpgroup products: each thread computes its own elements at once, and
// reads shared memory as the threads wrote it, so the fences, the commit
// and the wait have nothing left to order.
MSTAGE_EXPORT void __mstage_wgmma_fence(float *, unsigned) {}
MSTAGE_EXPORT void __mstage_wgmma_commit(void) {}
MSTAGE_EXPORT void __mstage_wgmma_proxy_fence(void) {}
MSTAGE_EXPORT void __mstage_wgmma_wait(unsigned, float *, unsigned) {}
MSTAGE_EXPORT void __mstage_wgmma_mma_f16(float *D, const void *A,
                                          const void *B, unsigned N,
                                          int Accumulate) {
  const CpuThread &T = current();
  if (wgmmaThreadMma(D, A, B, N, Accumulate != 0, T.Linear % 128))
    return;
  std::fprintf(stderr,
               "mstage: wgmma::mma_async: a tile (%p, %p) is not 1024-byte "
               "aligned, or a slice's k is not 0, 16, 32 or 48\n",
               A, B);
  printWhere(T);
  std::abort();
}
// Outside a grid-synchronizing CPU launch, a grid of one block: the barrier
// passes at once.
MSTAGE_EXPORT unsigned *__mstage_grid_barrier(void) {
  static unsigned Alone = 0;
  CpuThread *T = CurrentCpuThread;
  return T && T->GridBarrier ? T->GridBarrier : &Alone;
}
MSTAGE_EXPORT unsigned __mstage_atomic_inc_u32(unsigned *P, unsigned Limit) {
  return atomicUpdate(P, [=](unsigned Old) { return Old >= Limit ? 0 : Old + 1; });
}
MSTAGE_EXPORT unsigned __mstage_atomic_dec_u32(unsigned *P, unsigned Limit) {
  return atomicUpdate(P, [=](unsigned Old) {
    return Old == 0 || Old > Limit ? Limit : Old - 1;
  });
}
// A poll's pause: the CPU back end's polls meet a warp operation, where
// the other fibers run, or another OS thread's progress. In a launch whose
// blocks all run at once (a grid barrier's wait), the OS thread gives way to
// the blocks that have yet to arrive, which may outnumber the cores.
MSTAGE_EXPORT void __mstage_nanosleep(unsigned) {
  CpuThread *T = CurrentCpuThread;
  if (T && T->GridBarrier)
    std::this_thread::yield();
}
// mstage::on_device() and device_arch(): host code, as __CUDA_ARCH__ is
// undefined in host code.
MSTAGE_EXPORT int __mstage_on_device(void) { return 0; }
MSTAGE_EXPORT unsigned __mstage_device_arch(void) { return 0; }
// mstage::ldg's chunks: plain loads on the host, where no cache is
// non-coherent.
MSTAGE_EXPORT unsigned char __mstage_ldg_u8(const void *P) {
  return loadChunk<unsigned char>(P);
}
MSTAGE_EXPORT unsigned short __mstage_ldg_u16(const void *P) {
  return loadChunk<unsigned short>(P);
}
MSTAGE_EXPORT unsigned __mstage_ldg_u32(const void *P) {
  return loadChunk<unsigned>(P);
}
MSTAGE_EXPORT unsigned long long __mstage_ldg_u64(const void *P) {
  return loadChunk<unsigned long long>(P);
}
MSTAGE_EXPORT __mstage_ldg_v4u32_t __mstage_ldg_v4u32(const void *P) {
  return loadChunk<__mstage_ldg_v4u32_t>(P);
}
MSTAGE_EXPORT __mstage_ldg_v4u32_t __mstage_ldg_stream_v4u32(const void *P) {
  return loadChunk<__mstage_ldg_v4u32_t>(P);
}
}
