// Scans with std::'s argument order and semantics, on device ranges
// (device_vector or vector_view), for any associative operator and any
// trivially copyable T:
//
//   mstage::inclusive_scan(in, out);                  // out[i] = in[0] + ... + in[i]
//   mstage::inclusive_scan(v, mstage::maximum{});     // in place
//   mstage::exclusive_scan(in, out, 0);               // out[i] = 0 + in[0] + ... + in[i-1]
//   mstage::exclusive_scan(v, 1.0, std::multiplies<>{}, s);  // on stream s
//
// The call is enqueued on the stream (the current one unless given after the
// operator) and returns. One kernel, single pass: each block scans a tile of
// Block * Items elements and finds the tile's prefix by a decoupled look-back
// (detail/scan_lookback.hpp), so the data is read once and written once, as
// CUB's DeviceScan does. The size is staged, and the tile shape is a
// constant of the element type: every loop over a thread's items is
// unrolled and every bound folded. The tile flags live in scratch memory
// from the stream's pool, zeroed by a memset before the kernel.
#ifndef MSTAGE_ALGORITHM_SCAN_HPP
#define MSTAGE_ALGORITHM_SCAN_HPP

#include "mstage/algorithm/detail/block_scan.hpp"
#include "mstage/algorithm/detail/scan_common.hpp"
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

// The kernel of one scan: inclusive, or exclusive with init.
template <class T, bool Exclusive, class Op> auto scan_kernel(Op op) {
  return [op](vector_view<const T> in, vector_view<T> out,
              vector_view<unsigned long long> scratch, std::size_t nArg,
              std::size_t tilesArg, scan_slot<T> initArg) {
    constexpr unsigned Block = scan_block_threads<T>();
    constexpr unsigned Items = scan_items_per_thread<T>();
    constexpr unsigned TileItems = Block * Items;
    constexpr unsigned Warps = Block / 32;
    const std::size_t n = stage(nArg);
    const std::size_t tiles = stage(tilesArg);

    shared_array<scan_slot<T>, TileItems> tileMem;
    shared_array<scan_slot<T>, Warps> warpMem;
    shared_array<scan_slot<T>, 1> prefixMem;
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
      items[i] = scan_apply(op, items[i - 1], items[i]);

    const unsigned lane = tid % 32, warp = tid / 32;
    T laneExclusive; // valid for lane > 0
    T warpTotal = block_scan_warp_inclusive(items[Items - 1], op, laneExclusive);
    if (lane == 31)
      warpMem[warp] = scan_store(warpTotal);
    __mstage_barrier();

    // The block's aggregate, and the reduction of the warps before this one.
    T warpPrefix = scan_load(warpMem[0]);
    T aggregate = warpPrefix;
    for (unsigned w = 1; w < Warps; ++w) {
      if (w == warp)
        warpPrefix = aggregate;
      aggregate = scan_apply(op, aggregate, scan_load(warpMem[w]));
    }

    // The tile's prefix: init for the first tile of an exclusive scan, none
    // for the first of an inclusive one.
    if (warp == 0) {
      if (tile == 0) {
        if (lane == 0) {
          T incl = aggregate;
          if constexpr (Exclusive)
            incl = scan_apply(op, scan_load(initArg), aggregate);
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
                         scan_apply(op, p, aggregate));
          prefixMem[0] = scan_store(p);
        }
      }
    }
    __mstage_barrier();

    // This thread's prefix: the tile's, the warps', the lanes' before it.
    const bool hasTilePrefix = Exclusive || tile != 0;
    T prefix = hasTilePrefix ? scan_load(prefixMem[0]) : warpPrefix;
    if (hasTilePrefix && warp != 0)
      prefix = scan_apply(op, prefix, warpPrefix);
    if (lane != 0)
      prefix = hasTilePrefix || warp != 0
                   ? scan_apply(op, prefix, laneExclusive)
                   : laneExclusive;
    const bool hasPrefix = hasTilePrefix || warp != 0 || lane != 0;

    if constexpr (Exclusive) {
      buf[tid * Items] = prefix;
      for (unsigned i = 1; i < Items; ++i)
        buf[tid * Items + i] = scan_apply(op, prefix, items[i - 1]);
    } else {
      for (unsigned i = 0; i < Items; ++i)
        buf[tid * Items + i] =
            hasPrefix ? scan_apply(op, prefix, items[i]) : items[i];
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

template <class Op, class T, class = void>
struct scan_op_callable : std::false_type {};
template <class Op, class T>
struct scan_op_callable<
    Op, T,
    std::enable_if_t<std::is_convertible_v<
        std::invoke_result_t<const Op &, const T &, const T &>, T>>>
    : std::true_type {};

// Checks one scan call's types; true when they pass, so that a failed call
// gives its one error and instantiates nothing further.
template <class In, class Out, class Op>
constexpr bool scan_check_types(const char *) {
  constexpr bool ranges = scan_is_range<In> && scan_is_range<Out>;
  static_assert(ranges, "mstage::inclusive_scan/exclusive_scan: the ranges "
                        "must be device_vector or vector_view (device "
                        "memory); copy a std::vector into a device_vector");
  if constexpr (ranges) {
    using T = scan_value_t<In>;
    constexpr bool copyable = std::is_trivially_copyable_v<T>;
    static_assert(copyable, "mstage::inclusive_scan/exclusive_scan: the "
                            "element type must be trivially copyable");
    constexpr bool sameType = std::is_same_v<scan_element_t<Out>, T>;
    static_assert(sameType,
                  "mstage::inclusive_scan/exclusive_scan: the output must be "
                  "a writable range of the input's element type");
    constexpr bool callable = scan_op_callable<Op, T>::value;
    static_assert(callable,
                  "mstage::inclusive_scan/exclusive_scan: the operator must "
                  "be callable with two values of the element type and "
                  "return one convertible to it");
    static_assert(std::is_trivially_copyable_v<Op>,
                  "mstage::inclusive_scan/exclusive_scan: the operator must "
                  "be trivially copyable (a lambda capturing by value)");
    return copyable && sameType && callable && std::is_trivially_copyable_v<Op>;
  }
  return false;
}

template <class T, bool Exclusive, class Op>
void scan_run(const char *call, vector_view<const T> in, vector_view<T> out,
              const Op &op, scan_slot<T> init, stream_ref s) {
  scan_check_sizes(call, in.size(), out.size());
  const std::size_t n = in.size();
  if (n == 0)
    return;
  constexpr unsigned Block = scan_block_threads<T>();
  constexpr std::size_t TileItems = Block * scan_items_per_thread<T>();
  const std::size_t tiles = (n + TileItems - 1) / TileItems;
  if (tiles > INT_MAX)
    throw error(std::string("mstage: ") + call + ": " + std::to_string(n) +
                " elements are more than one launch scans");
  using Status = scan_tile_status<T>;
  const std::size_t words = 1 + Status::bytes(tiles) / 8 + 1;
  scan_scratch scratch(words * 8, s);
  scratch.zero(8 + Status::flag_bytes(tiles));
  kernel(scan_kernel<T, Exclusive>(op), dim3(tiles), dim3(Block))
      .on(s)(in, out, scratch.view<unsigned long long>(0, words), n, tiles,
             init);
}

template <class V> constexpr bool scan_is_stream() {
  return std::is_convertible_v<std::decay_t<V>, stream_ref> &&
         !scan_is_range<V>;
}

} // namespace detail

// inclusive_scan(in, out[, op[, stream]]), inclusive_scan(inout[, op[,
// stream]]): out[i] = in[0] op ... op in[i]; op defaults to std::plus<>.
inline constexpr struct inclusive_scan_fn {
  template <class In, class Out, class Op = std::plus<>,
            std::enable_if_t<detail::scan_is_range<Out>, int> = 0>
  void operator()(In &&in, Out &&out, Op op = {},
                  stream_ref s = current_stream()) const {
    if constexpr (detail::scan_check_types<In, Out, Op>("inclusive_scan")) {
      using T = detail::scan_value_t<In>;
      detail::scan_run<T, false>("inclusive_scan", detail::scan_view(in, s),
                                 detail::scan_view(out, s), op,
                                 detail::scan_slot<T>{}, s);
    }
  }
  template <class InOut, class Op = std::plus<>,
            std::enable_if_t<!detail::scan_is_range<Op> &&
                                 !detail::scan_is_stream<Op>(),
                             int> = 0>
  void operator()(InOut &&inout, Op op = {},
                  stream_ref s = current_stream()) const {
    static_assert(detail::scan_is_range<InOut>,
                  "mstage::inclusive_scan: the range must be a device_vector "
                  "or a vector_view (device memory); copy a std::vector into "
                  "a device_vector");
    if constexpr (detail::scan_is_range<InOut>)
      (*this)(inout, inout, op, s);
  }
} inclusive_scan{};

// exclusive_scan(in, out, init[, op[, stream]]), exclusive_scan(inout,
// init[, op[, stream]]): out[i] = init op in[0] op ... op in[i-1].
inline constexpr struct exclusive_scan_fn {
  template <class In, class Out, class Init, class Op = std::plus<>,
            std::enable_if_t<detail::scan_is_range<Out>, int> = 0>
  void operator()(In &&in, Out &&out, const Init &init, Op op = {},
                  stream_ref s = current_stream()) const {
    if constexpr (detail::scan_check_types<In, Out, Op>("exclusive_scan")) {
      using T = detail::scan_value_t<In>;
      static_assert(std::is_convertible_v<const Init &, T>,
                    "mstage::exclusive_scan: init must be convertible to the "
                    "element type");
      if constexpr (std::is_convertible_v<const Init &, T>)
        detail::scan_run<T, true>("exclusive_scan", detail::scan_view(in, s),
                                  detail::scan_view(out, s), op,
                                  detail::scan_store(static_cast<T>(init)), s);
    }
  }
  template <class InOut, class Init, class Op = std::plus<>,
            std::enable_if_t<!detail::scan_is_range<Init> &&
                                 !detail::scan_is_stream<Op>(),
                             int> = 0>
  void operator()(InOut &&inout, const Init &init, Op op = {},
                  stream_ref s = current_stream()) const {
    static_assert(detail::scan_is_range<InOut>,
                  "mstage::exclusive_scan: the range must be a device_vector "
                  "or a vector_view (device memory); copy a std::vector into "
                  "a device_vector");
    if constexpr (detail::scan_is_range<InOut>)
      (*this)(inout, inout, init, op, s);
  }
} exclusive_scan{};

} // namespace mstage

#endif
