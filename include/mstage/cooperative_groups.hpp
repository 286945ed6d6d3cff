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
//
// Also as in CUDA: coalesced_threads(), the lanes of the warp that call it
// together; cg::reduce, cg::inclusive_scan and cg::exclusive_scan over a tile
// or a coalesced group, with cg::plus, cg::less, cg::greater, cg::bit_and,
// cg::bit_or or cg::bit_xor (or any associative callable); and this_grid(),
// whose sync() waits for every thread of the launch. A kernel that calls
// this_grid().sync() is launched cooperatively, with no request of its own:
// its grid must fit on the GPU at once (else the launch fails and says how
// many blocks fit), and on the CPU back end its blocks all run at once.
#ifndef MSTAGE_COOPERATIVE_GROUPS_HPP
#define MSTAGE_COOPERATIVE_GROUPS_HPP

#include "mstage/atomic.hpp"
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

namespace detail {
// The rank-th lane (counting from 0) of Mask, which has more than rank lanes.
inline unsigned laneOfRank(unsigned Mask, unsigned Rank) {
  for (; Rank > 0; --Rank)
    Mask &= Mask - 1;
  return unsigned(__builtin_ctz(Mask));
}
} // namespace detail

// The lanes of a warp that call coalesced_threads() together (the warp's
// active mask), ranked in lane order. Its operations take the group's ranks,
// as a tile's do.
class coalesced_group {
public:
  explicit coalesced_group(unsigned LaneMask) : mask_(LaneMask) {}

  unsigned size() const { return unsigned(__builtin_popcount(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const {
    return unsigned(__builtin_popcount(mask_ & ((1u << warp::lane_id()) - 1u)));
  }
  unsigned mask() const { return mask_; }
  void sync() const { warp::sync(mask_); }

  // The value of rank src_rank % size(); of thread_rank() + delta, or the
  // caller's own past the last rank; of thread_rank() - delta, or the
  // caller's own below 0.
  template <class _Tp> _Tp shfl(_Tp v, unsigned src_rank) const {
    return warp::shfl(v, int(detail::laneOfRank(mask_, src_rank % size())),
                      mask_);
  }
  template <class _Tp> _Tp shfl_down(_Tp v, unsigned delta) const {
    unsigned _Rp = thread_rank() + delta;
    return warp::shfl(
        v, int(_Rp < size() ? detail::laneOfRank(mask_, _Rp) : warp::lane_id()),
        mask_);
  }
  template <class _Tp> _Tp shfl_up(_Tp v, unsigned delta) const {
    unsigned _Rp = thread_rank();
    return warp::shfl(v,
                      int(_Rp >= delta ? detail::laneOfRank(mask_, _Rp - delta)
                                       : warp::lane_id()),
                      mask_);
  }

  bool any(bool pred) const { return warp::any(pred, mask_); }
  bool all(bool pred) const { return warp::all(pred, mask_); }
  // Bit i is rank i's predicate.
  unsigned ballot(bool pred) const {
    unsigned _Lanes = warp::ballot(pred, mask_) & mask_, _Bits = 0;
    for (unsigned _Rp = 0, _Mp = mask_; _Mp != 0; _Mp &= _Mp - 1, ++_Rp)
      if (_Lanes & _Mp & ~(_Mp - 1))
        _Bits |= 1u << _Rp;
    return _Bits;
  }

private:
  unsigned mask_;
};

inline coalesced_group coalesced_threads() {
  return coalesced_group(warp::activemask());
}

// The operators of cg::reduce and the scans, as CUDA names them: less gives
// the lesser value, greater the greater.
template <class _Tp> struct plus {
  _Tp operator()(_Tp a, _Tp b) const { return a + b; }
};
template <class _Tp> struct less {
  _Tp operator()(_Tp a, _Tp b) const { return b < a ? b : a; }
};
template <class _Tp> struct greater {
  _Tp operator()(_Tp a, _Tp b) const { return a < b ? b : a; }
};
template <class _Tp> struct bit_and {
  _Tp operator()(_Tp a, _Tp b) const { return a & b; }
};
template <class _Tp> struct bit_or {
  _Tp operator()(_Tp a, _Tp b) const { return a | b; }
};
template <class _Tp> struct bit_xor {
  _Tp operator()(_Tp a, _Tp b) const { return a ^ b; }
};

namespace detail {
template <class _Tp>
inline constexpr bool isWarpWord =
    std::is_same_v<_Tp, int> || std::is_same_v<_Tp, unsigned>;

// The warp reduction (redux.sync on sm_80 and later) that Op is over _Tp,
// when there is one.
template <class _Tp, class _Op>
inline constexpr bool hasWarpReduction =
    isWarpWord<_Tp> &&
    (std::is_same_v<_Op, plus<_Tp>> || std::is_same_v<_Op, less<_Tp>> ||
     std::is_same_v<_Op, greater<_Tp>> ||
     (std::is_same_v<_Tp, unsigned> &&
      (std::is_same_v<_Op, bit_and<_Tp>> || std::is_same_v<_Op, bit_or<_Tp>> ||
       std::is_same_v<_Op, bit_xor<_Tp>>)));

template <class _Tp, class _Op> _Tp warpReduction(_Tp v, unsigned Mask) {
  if constexpr (std::is_same_v<_Op, plus<_Tp>>)
    return warp::reduce_add(v, Mask);
  else if constexpr (std::is_same_v<_Op, less<_Tp>>)
    return warp::reduce_min(v, Mask);
  else if constexpr (std::is_same_v<_Op, greater<_Tp>>)
    return warp::reduce_max(v, Mask);
  else if constexpr (std::is_same_v<_Op, bit_and<_Tp>>)
    return warp::reduce_and(v, Mask);
  else if constexpr (std::is_same_v<_Op, bit_or<_Tp>>)
    return warp::reduce_or(v, Mask);
  else
    return warp::reduce_xor(v, Mask);
}
} // namespace detail

// op over the group's values, given to every thread of the group (a tile or
// a coalesced group). An int or unsigned with one of the operators above is
// one warp reduction; anything else a tree of shuffles, op(lower ranks,
// higher ranks), and a broadcast from rank 0.
template <class Group, class _Tp, class _Op>
_Tp reduce(const Group &_Gp, _Tp v, _Op op) {
  if constexpr (detail::hasWarpReduction<_Tp, _Op>) {
    return detail::warpReduction<_Tp, _Op>(v, _Gp.mask());
  } else {
    unsigned _Rank = _Gp.thread_rank(), _Size = _Gp.size();
    for (unsigned _Dp = 1; _Dp < _Size; _Dp *= 2) {
      _Tp _Other = _Gp.shfl_down(v, _Dp);
      if (_Rank + _Dp < _Size)
        v = op(v, _Other);
    }
    return _Gp.shfl(v, 0);
  }
}

// Rank r gets op over the values of ranks 0..r (inclusive_scan) or 0..r-1
// (exclusive_scan, where rank 0 gets _Tp(), CUDA's result for cg::plus).
template <class Group, class _Tp, class _Op = plus<_Tp>>
_Tp inclusive_scan(const Group &_Gp, _Tp v, _Op op = _Op()) {
  unsigned _Rank = _Gp.thread_rank();
  for (unsigned _Dp = 1; _Dp < _Gp.size(); _Dp *= 2) {
    _Tp _Other = _Gp.shfl_up(v, _Dp);
    if (_Rank >= _Dp)
      v = op(_Other, v);
  }
  return v;
}
template <class Group, class _Tp, class _Op = plus<_Tp>>
_Tp exclusive_scan(const Group &_Gp, _Tp v, _Op op = _Op()) {
  _Tp _Before = _Gp.shfl_up(inclusive_scan(_Gp, v, op), 1);
  return _Gp.thread_rank() == 0 ? _Tp() : _Before;
}

// Every thread of the launch. sync() is a barrier for all of them: the block
// barrier, then one thread per block adds to the grid barrier's word and
// waits for its top bit to flip, then the block barrier again (CUDA's
// algorithm: the block of rank 0 adds 2^31 - (blocks - 1), the others 1, so
// the word is back to its low bits after each barrier and needs no reset).
class grid_group {
public:
  unsigned block_rank() const {
    return (__mstage_ctaid_z() * __mstage_nctaid_y() + __mstage_ctaid_y()) *
               __mstage_nctaid_x() +
           __mstage_ctaid_x();
  }
  unsigned num_blocks() const {
    return __mstage_nctaid_x() * __mstage_nctaid_y() * __mstage_nctaid_z();
  }
  unsigned long long thread_rank() const {
    return (unsigned long long)block_rank() * this_thread_block().size() +
           this_thread_block().thread_rank();
  }
  unsigned long long size() const {
    return (unsigned long long)num_blocks() * this_thread_block().size();
  }
  unsigned long long num_threads() const { return size(); }
  // Every launch of a kernel that synchronizes its grid is cooperative.
  bool is_valid() const { return true; }

  void sync(::mstage::detail::source_place place =
                ::mstage::detail::source_place()) const {
    ::mstage::detail::block_barrier(place);
    if (this_thread_block().thread_rank() == 0) {
      unsigned *_Word = __mstage_grid_barrier();
      unsigned _Add = block_rank() == 0 ? 0x80000000u - (num_blocks() - 1) : 1u;
      // The block's writes before the barrier, seen by every block after it.
      std::atomic_thread_fence(std::memory_order_seq_cst);
      unsigned _Old = atomic_ref<unsigned>(*_Word).fetch_add(
          _Add, std::memory_order_relaxed);
      while (((_Old ^
               atomic_ref<unsigned>(*_Word).load(std::memory_order_relaxed)) &
              0x80000000u) == 0)
        __mstage_nanosleep(32);
      std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    ::mstage::detail::block_barrier(place);
  }
};

inline grid_group this_grid() { return {}; }

} // namespace mstage::cg

#endif
