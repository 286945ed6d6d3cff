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

// The tile shape: 256 threads, each with an odd number of items (a thread's
// items are then in distinct shared-memory banks), about 60 bytes of them.
template <class T> constexpr unsigned scan_block_threads() { return 256; }
template <class T> constexpr unsigned scan_items_per_thread() {
  constexpr unsigned items = sizeof(T) <= 4 ? 15 : 60 / sizeof(T);
  return items == 0 ? 1 : (items | 1u);
}

// The kernel of one scan: inclusive, or exclusive with init, with tiles of
// Block threads x Items elements.
template <class T, bool Exclusive, unsigned Block, unsigned Items, class Op>
auto scan_kernel(Op op) {
  return [op](vector_view<const T> in, vector_view<T> out,
              vector_view<unsigned long long> scratch, std::size_t nArg,
              std::size_t tilesArg, raw_storage<T> initArg) {
    constexpr unsigned TileItems = Block * Items;
    constexpr unsigned Warps = Block / 32;
    const std::size_t n = stage(nArg);
    const std::size_t tiles = stage(tilesArg);

    shared_array<raw_storage<T>, TileItems> tileMem;
    shared_array<raw_storage<T>, Warps> warpMem;
    shared_array<raw_storage<T>, 1> prefixMem;
    shared_array<unsigned, 1> tileIdMem;
    T *buf = reinterpret_cast<T *>(tileMem.data());

    // scratch[0] numbers the tiles; the flags follow.
    using Status = scan_tile_status<T>;
    Status status{scratch.data() + 1, tiles};
    const unsigned tid = __mstage_tid_x();
    if (tid == 0)
      tileIdMem[0] =
          atomic_add(reinterpret_cast<unsigned *>(scratch.data()), 1u);
    __mstage_barrier();
    const unsigned tile = tileIdMem[0];
    const std::size_t base = std::size_t(tile) * TileItems;
    const T *src = in.data() + base;

    // Coalesced loads into shared memory; the last tile pads with its first
    // element, a valid T that is never stored.
    if (base + TileItems <= n) {
      for (unsigned i = 0; i < Items; ++i)
        buf[i * Block + tid] = src[i * Block + tid];
    } else {
      const T first = src[0];
      for (unsigned i = 0; i < Items; ++i) {
        unsigned k = i * Block + tid;
        buf[k] = base + k < n ? src[k] : first;
      }
    }
    __mstage_barrier();

    // Each thread scans its Items consecutive elements.
    T items[Items];
    for (unsigned i = 0; i < Items; ++i)
      items[i] = buf[tid * Items + i];
    for (unsigned i = 1; i < Items; ++i)
      items[i] = apply_op(op, items[i - 1], items[i]);

    // The threads' totals over the block: the block's aggregate, and what
    // comes before this thread's items within the block.
    T aggregate;
    bool hasBlockPrefix;
    const T blockPrefix = block_exclusive_scan<Block>(
        items[Items - 1], op, warpMem.data(), aggregate, hasBlockPrefix);
    const unsigned lane = tid % 32, warp = tid / 32;

    // The tile's prefix: init for the first tile of an exclusive scan, none
    // for the first of an inclusive one.
    if (warp == 0) {
      if (tile == 0) {
        if (lane == 0) {
          T incl = aggregate;
          if constexpr (Exclusive)
            incl = apply_op(op, from_raw(initArg), aggregate);
          status.publish(0, scan_status_inclusive, incl);
          prefixMem[0] = initArg;
        }
      } else {
        if (lane == 0)
          status.publish(tile, scan_status_aggregate, aggregate);
        // The first tile's inclusive prefix has init in it already.
        T p = scan_look_back<T>(status, tile, op);
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
    T prefix = blockPrefix;
    if (hasTilePrefix)
      prefix = hasBlockPrefix
                   ? apply_op(op, from_raw(prefixMem[0]), blockPrefix)
                   : from_raw(prefixMem[0]);
    const bool hasPrefix = hasTilePrefix || hasBlockPrefix;

    if constexpr (Exclusive) {
      buf[tid * Items] = prefix;
      for (unsigned i = 1; i < Items; ++i)
        buf[tid * Items + i] = apply_op(op, prefix, items[i - 1]);
    } else {
      for (unsigned i = 0; i < Items; ++i)
        buf[tid * Items + i] =
            hasPrefix ? apply_op(op, prefix, items[i]) : items[i];
    }
    __mstage_barrier();
    T *dst = out.data() + base;
    if (base + TileItems <= n) {
      for (unsigned i = 0; i < Items; ++i)
        dst[i * Block + tid] = buf[i * Block + tid];
    } else {
      for (unsigned i = 0; i < Items; ++i) {
        unsigned k = i * Block + tid;
        if (base + k < n)
          dst[k] = buf[k];
      }
    }
  };
}

// Whether a scan's arguments pass the checks below: then, and only then,
// the call goes on, so that a failed check is its one error.
template <class In, class Out, class Op, class = void>
inline constexpr bool scan_args_ok = false;
template <class In, class Out, class Op>
inline constexpr bool scan_args_ok<
    In, Out, Op, std::enable_if_t<view_arg_v<In> && writable_view_v<Out>>> =
    std::conjunction_v<std::is_same<element_of<In>, element_of<Out>>,
                       op_fits<Op, element_of<In>>,
                       std::is_trivially_copyable<Op>>;

// Block and Items 0 take the defaults.
template <class T, bool Exclusive, unsigned BlockArg = 0, unsigned ItemsArg = 0,
          class Op>
void scan_run(const char *call, vector_view<const T> in, vector_view<T> out,
              const Op &op, raw_storage<T> init, stream_ref s) {
  check_same_size(call, "the input and the output differ", in.size(),
                  out.size());
  const std::size_t n = in.size();
  if (n == 0)
    return;
  constexpr unsigned Block = BlockArg ? BlockArg : scan_block_threads<T>();
  constexpr unsigned Items = ItemsArg ? ItemsArg : scan_items_per_thread<T>();
  static_assert(Block % 32 == 0 && Block <= 1024 && Items >= 1,
                "mstage: a scan's tile has whole warps, at most 1024 threads");
  constexpr std::size_t TileItems = Block * Items;
  const std::size_t tiles = (n + TileItems - 1) / TileItems;
  if (tiles > INT_MAX)
    throw error(std::string("mstage: ") + call + ": " + std::to_string(n) +
                " elements are more than one launch scans");
  using Status = scan_tile_status<T>;
  const std::size_t words = 1 + Status::bytes(tiles) / 8 + 1;
  temporary scratch(words * 8, s);
  scratch.zero(8 + Status::flag_bytes(tiles));
  kernel(scan_kernel<T, Exclusive, Block, Items>(op), dim3(tiles), dim3(Block))
      .on(s)(in, out, scratch.view<unsigned long long>(0, words), n, tiles,
             init);
}

} // namespace detail

// The checks of a scan from in to out by op, each naming the call.
#define MSTAGE_SCAN_CHECK(call, In, Out, Op)                                   \
  MSTAGE_ALGORITHM_CHECK_VIEW(call, In);                                       \
  MSTAGE_ALGORITHM_CHECK_WRITABLE(call, Out, "the output");                    \
  MSTAGE_ALGORITHM_CHECK_OP(call, Op);                                         \
  if constexpr (::mstage::detail::view_arg_v<In> &&                            \
                ::mstage::detail::writable_view_v<Out>) {                      \
    using T_ = ::mstage::detail::element_of<In>;                               \
    static_assert(std::is_same_v<T_, ::mstage::detail::element_of<Out>>,       \
                  "mstage: " call ": the output's element type is not the "    \
                  "input's");                                                  \
    static_assert(::mstage::detail::op_fits_v<Op, T_>,                         \
                  "mstage: " call ": the operator is not callable with two "   \
                  "values of the element type, or does not return one");       \
  }

// inclusive_scan(in, out[, op]), inclusive_scan(inout[, op]): out[i] = in[0]
// op ... op in[i]; op defaults to std::plus<>. inclusive_scan_fn<Block,
// Items> and exclusive_scan_fn<Block, Items> are the scans with another tile
// shape (0: the default), for tuning (bench/mstage_scan_sort's sweep).
template <unsigned Block = 0, unsigned Items = 0>
struct inclusive_scan_fn
    : detail::algorithm_base<inclusive_scan_fn<Block, Items>> {
  using detail::algorithm_base<inclusive_scan_fn>::stream;
  template <class In, class Out, class Op = std::plus<>,
            std::enable_if_t<detail::range_arg_v<Out>, int> = 0>
  void operator()(In &&in, Out &&out, Op op = {}) const {
    MSTAGE_SCAN_CHECK("inclusive_scan", In, Out, Op)
    if constexpr (detail::scan_args_ok<In, Out, Op>) {
      using T = detail::element_of<In>;
      stream_ref s = stream();
      detail::scan_run<T, false, Block, Items>(
          "inclusive_scan", detail::as_view(in, s), detail::as_view(out, s), op,
          detail::raw_storage<T>{}, s);
    }
  }
  template <class InOut, class Op = std::plus<>,
            std::enable_if_t<!detail::range_arg_v<Op>, int> = 0>
  void operator()(InOut &&inout, Op op = {}) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("inclusive_scan", InOut, "the view");
    if constexpr (detail::writable_view_v<InOut>)
      (*this)(inout, inout, op);
  }
};
inline constexpr inclusive_scan_fn<> inclusive_scan{};

// exclusive_scan(in, out, init[, op]), exclusive_scan(inout, init[, op]):
// out[i] = init op in[0] op ... op in[i-1].
template <unsigned Block = 0, unsigned Items = 0>
struct exclusive_scan_fn
    : detail::algorithm_base<exclusive_scan_fn<Block, Items>> {
  using detail::algorithm_base<exclusive_scan_fn>::stream;
  template <class In, class Out, class Init, class Op = std::plus<>,
            std::enable_if_t<detail::range_arg_v<Out>, int> = 0>
  void operator()(In &&in, Out &&out, const Init &init, Op op = {}) const {
    MSTAGE_SCAN_CHECK("exclusive_scan", In, Out, Op)
    if constexpr (detail::scan_args_ok<In, Out, Op>) {
      using T = detail::element_of<In>;
      constexpr bool converts = std::is_convertible_v<const Init &, T>;
      static_assert(converts, "mstage: exclusive_scan: init does not "
                              "convert to the element type");
      stream_ref s = stream();
      if constexpr (converts)
        detail::scan_run<T, true, Block, Items>(
            "exclusive_scan", detail::as_view(in, s), detail::as_view(out, s),
            op, detail::to_raw(static_cast<T>(init)), s);
    }
  }
  template <class InOut, class Init, class Op = std::plus<>,
            std::enable_if_t<!detail::range_arg_v<Init>, int> = 0>
  void operator()(InOut &&inout, const Init &init, Op op = {}) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("exclusive_scan", InOut, "the view");
    if constexpr (detail::writable_view_v<InOut>)
      (*this)(inout, inout, init, op);
  }
};
inline constexpr exclusive_scan_fn<> exclusive_scan{};

} // namespace mstage

#endif
