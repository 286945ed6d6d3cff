// Cooperative groups in the style of CUDA's cooperative_groups: the thread
// block, and tiles of N = 1, 2, 4, 8, 16 or 32 threads that partition it.
//
//   auto block = mstage::cg::this_thread_block();
//   auto tile = mstage::cg::tiled_partition<8>(block);
//   for (unsigned d = tile.size() / 2; d > 0; d /= 2)
//     v += tile.shfl_down(v, d);      // tile.thread_rank() 0 has the sum
//
// A tile is N consecutive thread ranks of the block (x fastest, the order in
// which the GPU forms warps), so it never straddles a warp, and its
// operations are the warp primitives of mstage/warp.hpp restricted to the
// tile's lanes: the tile's lane mask, and shuffles of width N. As in CUDA,
// every thread of a tile must take part in its operations, so the block size
// must be a multiple of N.
#ifndef MSTAGE_COOPERATIVE_GROUPS_HPP
#define MSTAGE_COOPERATIVE_GROUPS_HPP

#include "mstage/bounds_check.hpp"
#include "mstage/builtins.h"
#include "mstage/index.hpp"
#include "mstage/warp.hpp"

namespace mstage::cg {

// The threads of this block.
class thread_block {
public:
  // The thread's rank in the block: x fastest, then y, then z.
  unsigned thread_rank() const {
    return (__mstage_tid_z() * __mstage_ntid_y() + __mstage_tid_y()) *
               __mstage_ntid_x() +
           __mstage_tid_x();
  }
  unsigned size() const {
    return __mstage_ntid_x() * __mstage_ntid_y() * __mstage_ntid_z();
  }
  unsigned num_threads() const { return size(); }
  // The block barrier (CUDA's __syncthreads).
  void sync(detail::source_place place = detail::source_place()) const {
    detail::block_barrier(place);
  }
  index3 group_index() const {
    return {__mstage_ctaid_x(), __mstage_ctaid_y(), __mstage_ctaid_z()};
  }
  index3 thread_index() const {
    return {__mstage_tid_x(), __mstage_tid_y(), __mstage_tid_z()};
  }
  index3 dim_threads() const {
    return {__mstage_ntid_x(), __mstage_ntid_y(), __mstage_ntid_z()};
  }
};

inline thread_block this_thread_block() { return {}; }

namespace detail {
template <unsigned _Np>
inline constexpr bool isTileSize =
    _Np >= 1 && _Np <= 32 && (_Np & (_Np - 1)) == 0;
} // namespace detail

// N consecutive threads of a block (or of a larger tile).
template <unsigned _Np> class thread_block_tile {
  static_assert(detail::isTileSize<_Np>,
                "mstage::cg::tiled_partition<N>: N must be 1, 2, 4, 8, 16 or "
                "32 (a power of 2 that fits in a warp)");

public:
  // ParentRank and ParentSize are the thread's rank in, and the size of, the
  // group that was partitioned.
  thread_block_tile(unsigned ParentRank, unsigned ParentSize)
      : parentRank_(ParentRank), parentSize_(ParentSize) {}

  static constexpr unsigned size() { return _Np; }
  static constexpr unsigned num_threads() { return _Np; }
  unsigned thread_rank() const { return parentRank_ % _Np; }
  // Which tile of the parent this is, and how many tiles the parent has.
  unsigned meta_group_rank() const { return parentRank_ / _Np; }
  unsigned meta_group_size() const { return (parentSize_ + _Np - 1) / _Np; }

  // The tile's lanes in the warp.
  unsigned mask() const {
    if constexpr (_Np == 32)
      return warp::full_mask;
    else
      return ((1u << _Np) - 1) << (warp::lane_id() & ~(_Np - 1));
  }
  // A barrier for the tile's threads (CUDA's __syncwarp with its mask).
  void sync() const { warp::sync(mask()); }

  // Shuffles within the tile, by thread rank in the tile: the value of rank
  // src_rank % N; of thread_rank() + delta, or the caller's own past the end
  // of the tile; of thread_rank() - delta, or the caller's own below 0; of
  // thread_rank() ^ lane_mask.
  template <class _Tp> _Tp shfl(_Tp v, int src_rank) const {
    return warp::shfl(v, src_rank, mask(), int(_Np));
  }
  template <class _Tp> _Tp shfl_down(_Tp v, unsigned delta) const {
    return warp::shfl_down(v, delta, mask(), int(_Np));
  }
  template <class _Tp> _Tp shfl_up(_Tp v, unsigned delta) const {
    return warp::shfl_up(v, delta, mask(), int(_Np));
  }
  template <class _Tp> _Tp shfl_xor(_Tp v, int lane_mask) const {
    return warp::shfl_xor(v, lane_mask, mask(), int(_Np));
  }

  // Votes of the tile; bit i of ballot is thread rank i's predicate.
  bool any(bool pred) const { return warp::any(pred, mask()); }
  bool all(bool pred) const { return warp::all(pred, mask()); }
  // The ballot keeps only the tile's bits: other tiles of the warp may run
  // the same vote.sync with their own masks.
  unsigned ballot(bool pred) const {
    return (warp::ballot(pred, mask()) & mask()) >>
           (warp::lane_id() & ~(_Np - 1));
  }

private:
  unsigned parentRank_;
  unsigned parentSize_;
};

// Splits the block into tiles of N threads.
template <unsigned _Np>
thread_block_tile<_Np> tiled_partition(const thread_block &Block) {
  return thread_block_tile<_Np>(Block.thread_rank(), Block.size());
}

// Splits a tile of M threads into tiles of N.
template <unsigned _Np, unsigned _Mp>
thread_block_tile<_Np> tiled_partition(const thread_block_tile<_Mp> &Tile) {
  static_assert(_Np <= _Mp, "mstage::cg::tiled_partition<N>(tile): N must not "
                            "exceed the size of the tile it partitions");
  return thread_block_tile<_Np>(Tile.thread_rank(), _Mp);
}

// CUDA's free-function spelling of group.sync().
template <class Group> void sync(const Group &_Gp) { _Gp.sync(); }

} // namespace mstage::cg

#endif
