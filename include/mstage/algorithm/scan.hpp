// Scans with std::'s argument order and semantics, for any associative
// operator (it need not be commutative) and any trivially copyable T:
//
//   mstage::inclusive_scan(in, out);                  // out[i] = in[0] + ... +
//   in[i] mstage::inclusive_scan(v, mstage::maximum{});     // in place
//   mstage::exclusive_scan(in, out, 0);               // out[i] = 0 + in[0] +
//   ... + in[i-1] mstage::exclusive_scan.on(s)(v, 1.0, std::multiplies<>{}); //
//   on stream s
//
// None waits: each is enqueued on the stream. One kernel, single pass: each
// block scans a tile of Block * Items elements and finds the tile's prefix
// by a decoupled look-back (detail/scan_lookback.hpp), so the data is read
// once and written once, as CUB's DeviceScan does. The size is staged, and
// the tile shape is a constant of the element type: every loop over a
// thread's items is unrolled and every bound folded. The tile flags live in
// scratch memory from the stream's pool, zeroed by a memset before the
// kernel.
#ifndef MSTAGE_ALGORITHM_SCAN_HPP
#define MSTAGE_ALGORITHM_SCAN_HPP

#include "mstage/algorithm/detail/block_scan.hpp"
#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/scan_lookback.hpp"
#include "mstage/atomic.hpp"
#include "mstage/builtins.h"
#include "mstage/kernel.hpp"
#include "mstage/shared_array.hpp"
#include "mstage/stage.hpp"

#include <climits>
#include <cstddef>
#include <functional>
#include <type_traits>

namespace mstage {
namespace detail {

// How a scan's block moves its tile between global memory and its threads'
// consecutive items, and how it numbers its tile (bench/mstage_scan_sort's
// sweep times each).
enum class scan_exchange {
  // Each warp loads (and stores) its own 32 x Items elements, coalesced,
  // and transposes them through its part of shared memory: warp barriers
  // only, as CUB's BLOCK_LOAD_WARP_TRANSPOSE.
  warp,
  // The block loads the whole tile into shared memory and reads it back
  // after a block barrier, and the same to store (the first version).
  block,
};
enum class scan_order {
  // Tiles in the order their blocks start, from an atomic counter: a tile
  // waits only for running blocks, whatever the scheduler does.
  counter,
  // Tile = block index, as CUB's DeviceScan: no atomic before the loads,
  // but it counts on blocks starting in index order, which CUDA does not
  // promise (the CPU back end does: its threads take blocks in order).
  block_index,
};
enum class scan_wait {
  spin,  // the look-back polls its predecessors' flags without pause
  sleep, // it sleeps before polling, as CUB's (detail/scan_lookback.hpp)
};

// The tile shape: each thread has an odd number of items (a thread's items
// are then in distinct shared-memory banks). Elements of up to 4 bytes: 128
// threads x 23, near CUB's tuning for the H100 (128 x 24): 48 registers,
// 10 blocks and 29440 elements a multiprocessor (256 x 15 had 6 blocks and
// 23040). Larger ones: 256 threads, about 60 bytes each.
template <class _Tp> constexpr unsigned scan_block_threads() {
  return sizeof(_Tp) <= 4 ? 128 : 256;
}
template <class _Tp> constexpr unsigned scan_items_per_thread() {
  constexpr unsigned items = sizeof(_Tp) <= 4 ? 23 : 60 / sizeof(_Tp);
  return items == 0 ? 1 : (items | 1u);
}

// The kernel of one scan: inclusive, or exclusive with init, with tiles of
// Block threads x Items elements.
template <class _Tp, bool Exclusive, unsigned Block, unsigned Items,
          scan_exchange Exchange, scan_order Order, scan_wait Wait, class _Op>
auto scan_kernel(_Op op) {
  return [op](vector_view<const _Tp> in, vector_view<_Tp> out,
              vector_view<unsigned long long> scratch, std::size_t nArg,
              std::size_t tilesArg, raw_storage<_Tp> initArg) {
    constexpr unsigned TileItems = Block * Items;
    constexpr unsigned Warps = Block / 32;
    constexpr bool ByWarp = Exchange == scan_exchange::warp;
    const std::size_t n = stage(nArg);
    const std::size_t tiles = stage(tilesArg);

    shared_array<raw_storage<_Tp>, TileItems> tileMem;
    shared_array<raw_storage<_Tp>, Warps> warpMem;
    shared_array<raw_storage<_Tp>, 1> prefixMem;
    shared_array<unsigned, 1> tileIdMem;

    // scratch[0] numbers the tiles; the flags follow.
    using Status = scan_tile_status<_Tp>;
    Status status{scratch.data() + 1, tiles};
    const unsigned tid = __mstage_tid_x();
    const unsigned lane = tid % 32, warp = tid / 32;
    unsigned tile;
    if constexpr (Order == scan_order::counter) {
      if (tid == 0)
        tileIdMem[0] =
            atomic_add(reinterpret_cast<unsigned *>(scratch.data()), 1u);
      __mstage_barrier();
      tile = tileIdMem[0];
    } else {
      tile = __mstage_ctaid_x();
    }
    const std::size_t base = std::size_t(tile) * TileItems;
    const bool full = base + TileItems <= n;

    // The part of the tile this thread moves: by warp, its warp's 32 x
    // Items elements, lane by lane (the warp's part of shared memory); by
    // block, the whole tile, thread by thread.
    _Tp *buf = reinterpret_cast<_Tp *>(tileMem.data());
    _Tp *part = ByWarp ? buf + warp * 32 * Items : buf;
    const unsigned first = ByWarp ? warp * 32 * Items : 0;
    const unsigned stride = ByWarp ? 32 : Block;
    const unsigned at = ByWarp ? lane : tid;
    auto sync = [] {
      if constexpr (ByWarp)
        __mstage_syncwarp(~0u);
      else
        __mstage_barrier();
    };

    // Coalesced loads into shared memory; the last tile pads with its first
    // element, a valid T that is never stored.
    const _Tp *src = in.data() + base + first;
    if (full) {
      for (unsigned i = 0; i < Items; ++i)
        part[i * stride + at] = src[i * stride + at];
    } else {
      const _Tp pad = in.data()[base];
      for (unsigned i = 0; i < Items; ++i) {
        unsigned k = i * stride + at;
        part[k] = base + first + k < n ? src[k] : pad;
      }
    }
    sync();

    // Each thread scans its Items consecutive elements.
    _Tp items[Items];
    for (unsigned i = 0; i < Items; ++i)
      items[i] = buf[tid * Items + i];
    for (unsigned i = 1; i < Items; ++i)
      items[i] = apply_op(op, items[i - 1], items[i]);

    // The threads' totals over the block: the block's aggregate, and what
    // comes before this thread's items within the block.
    _Tp aggregate;
    bool hasBlockPrefix;
    const _Tp blockPrefix = block_exclusive_scan<Block>(
        items[Items - 1], op, warpMem.data(), aggregate, hasBlockPrefix);

    // The tile's prefix: init for the first tile of an exclusive scan, none
    // for the first of an inclusive one.
    if (warp == 0) {
      if (tile == 0) {
        if (lane == 0) {
          _Tp incl = aggregate;
          if constexpr (Exclusive)
            incl = apply_op(op, from_raw(initArg), aggregate);
          status.publish(0, scan_status_inclusive, incl);
          prefixMem[0] = initArg;
        }
      } else {
        if (lane == 0)
          status.publish(tile, scan_status_aggregate, aggregate);
        // The first tile's inclusive prefix has init in it already.
        _Tp p = Wait == scan_wait::sleep && tiles >= scan_sleep_min_tiles
                    ? scan_look_back<_Tp, true>(status, tile, op)
                    : scan_look_back<_Tp, false>(status, tile, op);
        if (lane == 0) {
          status.publish(tile, scan_status_inclusive,
                         apply_op(op, p, aggregate));
          prefixMem[0] = to_raw(p);
        }
      }
    }
    __mstage_barrier();

    // This thread's prefix: the tile's, then the block's before it.
    const bool hasTilePrefix = Exclusive || tile != 0;
    _Tp prefix = blockPrefix;
    if (hasTilePrefix)
      prefix = hasBlockPrefix
                   ? apply_op(op, from_raw(prefixMem[0]), blockPrefix)
                   : from_raw(prefixMem[0]);
    const bool hasPrefix = hasTilePrefix || hasBlockPrefix;

    // By warp, the barrier above also ends every lane's reads of its part.
    if constexpr (Exclusive) {
      buf[tid * Items] = prefix;
      for (unsigned i = 1; i < Items; ++i)
        buf[tid * Items + i] = apply_op(op, prefix, items[i - 1]);
    } else {
      for (unsigned i = 0; i < Items; ++i)
        buf[tid * Items + i] =
            hasPrefix ? apply_op(op, prefix, items[i]) : items[i];
    }
    sync();
    _Tp *dst = out.data() + base + first;
    if (full) {
      for (unsigned i = 0; i < Items; ++i)
        dst[i * stride + at] = part[i * stride + at];
    } else {
      for (unsigned i = 0; i < Items; ++i) {
        unsigned k = i * stride + at;
        if (base + first + k < n)
          dst[k] = part[k];
      }
    }
  };
}

// Whether a scan's arguments pass the checks below: then, and only then,
// the call goes on, so that a failed check is its one error.
template <class _In, class _Out, class _Op, class = void>
inline constexpr bool scan_args_ok = false;
template <class _In, class _Out, class _Op>
inline constexpr bool
    scan_args_ok<_In, _Out, _Op,
                 std::enable_if_t<view_arg_v<_In> && writable_view_v<_Out>>> =
        std::conjunction_v<std::is_same<element_of<_In>, element_of<_Out>>,
                           op_fits<_Op, element_of<_In>>,
                           std::is_trivially_copyable<_Op>>;

// Block and Items 0 take the defaults.
template <class _Tp, bool Exclusive, unsigned BlockArg = 0,
          unsigned ItemsArg = 0, scan_exchange Exchange = scan_exchange::warp,
          scan_order Order = scan_order::counter,
          scan_wait Wait = scan_wait::sleep, class _Op>
void scan_run(const char *call, vector_view<const _Tp> in, vector_view<_Tp> out,
              const _Op &op, raw_storage<_Tp> init, stream_ref s) {
  check_same_size(call, "the input and the output differ", in.size(),
                  out.size());
  const std::size_t n = in.size();
  if (n == 0)
    return;
  constexpr unsigned Block = BlockArg ? BlockArg : scan_block_threads<_Tp>();
  // Another shape's items are fewer where the tile would not fit 40 KiB of
  // the 48 KiB of static shared memory a block may have (large T's).
  constexpr std::size_t Fit = 40 * 1024 / (Block * sizeof(_Tp));
  constexpr unsigned Items = !ItemsArg         ? scan_items_per_thread<_Tp>()
                             : ItemsArg <= Fit ? ItemsArg
                                               : unsigned(Fit < 1 ? 1 : Fit);
  static_assert(Block % 32 == 0 && Block <= 1024 && Items >= 1,
                "mstage: a scan's tile has whole warps, at most 1024 threads");
  constexpr std::size_t TileItems = Block * Items;
  const std::size_t tiles = (n + TileItems - 1) / TileItems;
  if (tiles > INT_MAX)
    throw error(std::string("mstage: ") + call + ": " + std::to_string(n) +
                " elements are more than one launch scans");
  using Status = scan_tile_status<_Tp>;
  const std::size_t words = 1 + Status::bytes(tiles) / 8 + 1;
  temporary scratch(words * 8, s);
  scratch.zero(8 + Status::flag_bytes(tiles));
  kernel("mstage::scan",
         scan_kernel<_Tp, Exclusive, Block, Items, Exchange, Order, Wait>(op),
         dim3(tiles), dim3(Block))
      .on(s)(in, out, scratch.view<unsigned long long>(0, words), n, tiles,
             init);
}

} // namespace detail

// The checks of a scan from in to out by op, each naming the call.
#define MSTAGE_SCAN_CHECK(call, _In, _Out, _Op)                                \
  MSTAGE_ALGORITHM_CHECK_VIEW(call, _In);                                      \
  MSTAGE_ALGORITHM_CHECK_WRITABLE(call, _Out, "the output");                   \
  MSTAGE_ALGORITHM_CHECK_OP(call, _Op);                                        \
  if constexpr (::mstage::detail::view_arg_v<_In> &&                           \
                ::mstage::detail::writable_view_v<_Out>) {                     \
    using T_ = ::mstage::detail::element_of<_In>;                              \
    static_assert(std::is_same_v<T_, ::mstage::detail::element_of<_Out>>,      \
                  "mstage: " call ": the output's element type is not the "    \
                  "input's");                                                  \
    static_assert(::mstage::detail::op_fits_v<_Op, T_>,                        \
                  "mstage: " call ": the operator is not callable with two "   \
                  "values of the element type, or does not return one");       \
  }

// inclusive_scan(in, out[, op]), inclusive_scan(inout[, op]): out[i] = in[0]
// op ... op in[i]; op defaults to std::plus<>. inclusive_scan_fn<Block,
// Items, Exchange, Order, Wait> and exclusive_scan_fn<...> are the scans with
// another tile shape (0: the default), exchange, tile order or look-back
// wait, for tuning (bench/mstage_scan_sort's sweep).
template <unsigned Block = 0, unsigned Items = 0,
          detail::scan_exchange Exchange = detail::scan_exchange::warp,
          detail::scan_order Order = detail::scan_order::counter,
          detail::scan_wait Wait = detail::scan_wait::sleep>
struct inclusive_scan_fn
    : detail::algorithm_base<
          inclusive_scan_fn<Block, Items, Exchange, Order, Wait>> {
  using detail::algorithm_base<inclusive_scan_fn>::stream;
  template <class _In, class _Out, class _Op = std::plus<>,
            std::enable_if_t<detail::range_arg_v<_Out>, int> = 0>
  void operator()(_In &&in, _Out &&out, _Op op = {}) const {
    MSTAGE_SCAN_CHECK("inclusive_scan", _In, _Out, _Op)
    if constexpr (detail::scan_args_ok<_In, _Out, _Op>) {
      using _Tp = detail::element_of<_In>;
      stream_ref s = stream();
      detail::scan_run<_Tp, false, Block, Items, Exchange, Order, Wait>(
          "inclusive_scan", detail::as_view(in, s), detail::as_view(out, s), op,
          detail::raw_storage<_Tp>{}, s);
    }
  }
  template <class InOut, class _Op = std::plus<>,
            std::enable_if_t<!detail::range_arg_v<_Op>, int> = 0>
  void operator()(InOut &&inout, _Op op = {}) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("inclusive_scan", InOut, "the view");
    if constexpr (detail::writable_view_v<InOut>)
      (*this)(inout, inout, op);
  }
};
inline constexpr inclusive_scan_fn<> inclusive_scan{};

// exclusive_scan(in, out, init[, op]), exclusive_scan(inout, init[, op]):
// out[i] = init op in[0] op ... op in[i-1].
template <unsigned Block = 0, unsigned Items = 0,
          detail::scan_exchange Exchange = detail::scan_exchange::warp,
          detail::scan_order Order = detail::scan_order::counter,
          detail::scan_wait Wait = detail::scan_wait::sleep>
struct exclusive_scan_fn
    : detail::algorithm_base<
          exclusive_scan_fn<Block, Items, Exchange, Order, Wait>> {
  using detail::algorithm_base<exclusive_scan_fn>::stream;
  template <class _In, class _Out, class Init, class _Op = std::plus<>,
            std::enable_if_t<detail::range_arg_v<_Out>, int> = 0>
  void operator()(_In &&in, _Out &&out, const Init &init, _Op op = {}) const {
    MSTAGE_SCAN_CHECK("exclusive_scan", _In, _Out, _Op)
    if constexpr (detail::scan_args_ok<_In, _Out, _Op>) {
      using _Tp = detail::element_of<_In>;
      constexpr bool converts = std::is_convertible_v<const Init &, _Tp>;
      static_assert(converts, "mstage: exclusive_scan: init does not "
                              "convert to the element type");
      stream_ref s = stream();
      if constexpr (converts)
        detail::scan_run<_Tp, true, Block, Items, Exchange, Order, Wait>(
            "exclusive_scan", detail::as_view(in, s), detail::as_view(out, s),
            op, detail::to_raw(static_cast<_Tp>(init)), s);
    }
  }
  template <class InOut, class Init, class _Op = std::plus<>,
            std::enable_if_t<!detail::range_arg_v<Init>, int> = 0>
  void operator()(InOut &&inout, const Init &init, _Op op = {}) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("exclusive_scan", InOut, "the view");
    if constexpr (detail::writable_view_v<InOut>)
      (*this)(inout, inout, init, op);
  }
};
inline constexpr exclusive_scan_fn<> exclusive_scan{};

} // namespace mstage

#endif
