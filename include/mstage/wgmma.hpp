// Warpgroup tensor-core products (PTX's wgmma.mma_async, sm_90: H100 and
// H200): the four warps of a warpgroup (128 threads, warps 4g .. 4g + 3)
// multiply a 64 x 16 slice of A by a 16 x N slice of B, both read
// from shared memory by the tensor cores, and add the product to a 64 x N
// float accumulator held in the warpgroup's registers:
//
//   namespace wgmma = mstage::wgmma;
//   shared_array<half, ...> smem;         // a, b: 1024-byte aligned tiles
//   half *a = ..., *b = ...;              // A: 64 rows, B: N rows (columns)
//   wgmma::accumulator<128> acc;          // 64 x 128, zeroed
//   ... copy the tiles in, at wgmma::swizzled_offset(row, k) ...
//   wgmma::fence_shared_writes();
//   block.sync();
//   wgmma::fence(acc);
//   for (unsigned k = 0; k < wgmma::tile_k; k += 16)
//     wgmma::mma_async(acc, a + k, b + k);
//   wgmma::commit_group();
//   wgmma::wait<0>(acc);                  // acc holds the sums now
//   C[acc.row(t, i) * ldc + acc.col(t, i)] = acc.x[i];  // t: thread in group
//
// The tiles are K-major (A row major, B column major: a row of either holds
// consecutive k) with the 128-byte swizzle, the layout TMA and CUTLASS call
// SW128 K-major: a tile's row r is 64 halves (128 bytes) at r * 64, and its
// 16-byte chunk c (k = 8c .. 8c + 7) sits at chunk c ^ (r % 8) of the row.
// The tile starts 1024-byte aligned; a + k (k = 0, 16, 32, 48) names the
// k-th 16-wide slice, as the descriptor's start address does.
//
// As in PTX: all 128 threads of the warpgroup call each function with the
// same arguments; fence comes before the first mma_async and after any other
// write of the accumulator; the shared tiles must not change and the
// accumulator must not be read until wait<N> has let the group finish. An
// accumulator's element i of thread t (t = thread index % 128) is
// (row(t, i), col(t, i)) of the 64 x N product, as PTX lays out wgmma's D.
//
// On the device each function is inline PTX and the kernel is compiled for
// sm_90a (the JIT picks it on an sm_90 device; elsewhere the compile is an
// error naming the kernel). On the CPU back end each thread computes its own
// elements from the shared tiles at mma_async (products exact in float,
// summed in float, as the tensor cores do).
#ifndef MSTAGE_WGMMA_HPP
#define MSTAGE_WGMMA_HPP

#include "mstage/builtins.h"
#include "mstage/half.hpp"
#include "mstage/wgmma_layout.hpp"

namespace mstage::wgmma {

// Orders the accumulator's registers and the shared tiles before the
// mma_async calls that follow (wgmma.fence).
template <unsigned _Np> void fence(accumulator<_Np> &__d) {
  __mstage_wgmma_fence(__d.x, _Np / 2);
}
inline void fence() { __mstage_wgmma_fence(nullptr, 0); }

// d += a * b (d = a * b where accumulate is false), started, not finished:
// a is a 64 x 16 slice of a swizzled tile, b a _Np x 16 one.
template <unsigned _Np>
void mma_async(accumulator<_Np> &__d, const half *__a, const half *__b,
               bool __accumulate = true) {
  __mstage_wgmma_mma_f16(__d.x, __a, __b, _Np, __accumulate);
}

// Makes this thread's writes to shared memory (stores, and cp.async copies
// once waited for) visible to the tensor cores, which read the tiles
// through another path (PTX's async proxy): each thread that wrote a tile
// calls it before the barrier that precedes the mma_async calls reading it
// (fence.proxy.async.shared::cta).
inline void fence_shared_writes() { __mstage_wgmma_proxy_fence(); }

// Closes the group of the mma_async calls since the last commit_group.
inline void commit_group() { __mstage_wgmma_commit(); }

// Waits until at most _Pending groups are in flight; d's registers are
// read only after it.
template <unsigned _Pending, unsigned _Np> void wait(accumulator<_Np> &__d) {
  __mstage_wgmma_wait(_Pending, __d.x, _Np / 2);
}
template <unsigned _Pending> void wait() {
  __mstage_wgmma_wait(_Pending, nullptr, 0);
}

} // namespace mstage::wgmma

#endif
