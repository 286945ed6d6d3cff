// Asynchronous copies from global to shared memory, as CUDA's
// cooperative_groups::memcpy_async and cg::wait:
//
//   shared_array<float, 2, 1024> tile;
//   auto block = mstage::cg::this_thread_block();
//   cg::memcpy_async(block, tile[0].data(), &in[0], 1024 * sizeof(float));
//   for (int k = 0; k < tiles; ++k) {
//     if (k + 1 < tiles)          // the next tile loads while this one is used
//       cg::memcpy_async(block, tile[(k + 1) % 2].data(), &in[(k + 1) * 1024],
//                        1024 * sizeof(float));
//     cg::wait_prior<1>(block);   // all but the latest copy have landed
//     ... use tile[k % 2] ...
//     block.sync();               // before the next copy overwrites it
//   }
//
// The group's threads share the copy, chunk i going to thread rank
// i % size(), in chunks of 16 bytes where dst, src and the size allow it (else
// 8, else 4; else the group copies byte by byte, at once). On sm_80 and later
// a chunk is one cp.async, which the thread does not wait for; before sm_80,
// and on the CPU back end, a load and a store. dst must point into shared
// memory and src into global memory, and every thread of the group must call
// memcpy_async with the same arguments, as in CUDA.
#ifndef MSTAGE_MEMCPY_ASYNC_HPP
#define MSTAGE_MEMCPY_ASYNC_HPP

#include "mstage/builtins.h"

#include <cstddef>
#include <cstdint>

namespace mstage::cg {

namespace detail {
// Issues this thread's chunks of Bytes bytes (a multiple of _Np) of the copy.
template <unsigned _Np>
void copyChunks(unsigned Rank, unsigned Size, char *Dst, const char *Src,
                std::size_t Bytes) {
  for (std::size_t _Ip = std::size_t(Rank) * _Np; _Ip < Bytes;
       _Ip += std::size_t(Size) * _Np) {
    if constexpr (_Np == 16)
      __mstage_cp_async_16(Dst + _Ip, Src + _Ip);
    else if constexpr (_Np == 8)
      __mstage_cp_async_8(Dst + _Ip, Src + _Ip);
    else
      __mstage_cp_async_4(Dst + _Ip, Src + _Ip);
  }
}
} // namespace detail

// Starts copying bytes bytes from src (global memory) to dst (shared
// memory), shared among the threads of group (a block, a tile or a coalesced
// group); wait or wait_prior makes the data visible to the whole group.
template <class Group>
void memcpy_async(const Group &group, void *dst, const void *src,
                  std::size_t bytes) {
  unsigned _Rank = group.thread_rank(), _Size = group.size();
  auto *_Dp = static_cast<char *>(dst);
  auto *_Sp = static_cast<const char *>(src);
  std::uintptr_t _Align = reinterpret_cast<std::uintptr_t>(dst) |
                          reinterpret_cast<std::uintptr_t>(src) | bytes;
  if (_Align % 16 == 0)
    detail::copyChunks<16>(_Rank, _Size, _Dp, _Sp, bytes);
  else if (_Align % 8 == 0)
    detail::copyChunks<8>(_Rank, _Size, _Dp, _Sp, bytes);
  else if (_Align % 4 == 0)
    detail::copyChunks<4>(_Rank, _Size, _Dp, _Sp, bytes);
  else
    for (std::size_t _Ip = _Rank; _Ip < bytes; _Ip += _Size)
      _Dp[_Ip] = _Sp[_Ip];
  __mstage_cp_async_commit();
}

// Waits for every copy that the group's threads started, then synchronizes
// the group, so each thread sees all of the data.
template <class Group> void wait(const Group &group) {
  __mstage_cp_async_wait(0);
  group.sync();
}

// The same, except that the Count most recent memcpy_async calls of the
// group may still be in flight (CUDA's wait_prior<N>).
template <unsigned Count, class Group> void wait_prior(const Group &group) {
  __mstage_cp_async_wait(Count);
  group.sync();
}

} // namespace mstage::cg

namespace mstage {

// One thread's asynchronous copies, as CUDA's pipeline primitives
// (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior), for
// kernels that place each chunk themselves (a padded tile, say): copies
// Bytes (4, 8 or 16) from global src to shared dst, both aligned to Bytes;
// commit closes the thread's batch; wait_prior<N> waits until at most the N
// latest batches of the thread are in flight. The block barrier that follows
// makes the data visible to the other threads.
template <unsigned Bytes>
void pipeline_memcpy_async(void *dst, const void *src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "mstage::pipeline_memcpy_async copies 4, 8 or 16 bytes");
  if constexpr (Bytes == 16)
    __mstage_cp_async_16(dst, src);
  else if constexpr (Bytes == 8)
    __mstage_cp_async_8(dst, src);
  else
    __mstage_cp_async_4(dst, src);
}
inline void pipeline_commit() { __mstage_cp_async_commit(); }
template <unsigned Count> void pipeline_wait_prior() {
  __mstage_cp_async_wait(Count);
}

} // namespace mstage

#endif
