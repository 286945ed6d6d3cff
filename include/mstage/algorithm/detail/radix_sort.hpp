// An LSD radix sort of 8-bit digits in the manner of CUB's Onesweep: one
// kernel counts every pass's digits at once, and each pass is then one
// kernel that reads its keys once and writes them once. A block ranks its
// tile's keys stably (warp ballots find the lanes with the same digit,
// per-warp counters in shared memory carry the count across items), finds
// where each digit of its tile goes by a decoupled look-back over the tiles
// before it (one thread per digit), sorts the tile in shared memory and
// writes it out, digit runs contiguous.
//
// A look-back flag packs its status in the top 2 bits and a count in the low
// 30, so one call sorts fewer than 2^30 keys. Tiles are numbered in the
// order their blocks start, so a tile waits only for running blocks (see
// scan_lookback.hpp), on the GPU and the CPU back end alike.
#ifndef MSTAGE_ALGORITHM_DETAIL_RADIX_SORT_HPP
#define MSTAGE_ALGORITHM_DETAIL_RADIX_SORT_HPP

#include "mstage/algorithm/detail/block_scan.hpp"
#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/radix_keys.hpp"
#include "mstage/atomic.hpp"
#include "mstage/builtins.h"
#include "mstage/kernel.hpp"
#include "mstage/shared_array.hpp"
#include "mstage/stage.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace mstage::detail {

inline constexpr unsigned radix_block = 256; // one thread per digit
inline constexpr unsigned radix_warps = radix_block / 32;
inline constexpr unsigned radix_histogram_items = 8192; // keys per block
inline constexpr unsigned radix_flag_aggregate = 1u << 30;
inline constexpr unsigned radix_flag_inclusive = 2u << 30;
inline constexpr unsigned radix_count_mask = (1u << 30) - 1;
inline constexpr std::size_t radix_max_keys = radix_count_mask;

// 16 keys a thread (8 for 8-byte keys), fewer where large values would not
// fit the 48 KiB of static shared memory a block may have.
template <class K, class V, bool HasValues>
constexpr unsigned radix_items_per_thread() {
  constexpr unsigned keys = sizeof(K) <= 4 ? 16 : 8;
  constexpr std::size_t bytes = sizeof(K) + (HasValues ? sizeof(V) : 0);
  constexpr std::size_t fit = 38 * 1024 / (radix_block * bytes);
  return fit < 1 ? 1 : fit < keys ? unsigned(fit) : keys;
}

// Counts the digits of every pass in Keys: hist[pass * 256 + digit].
template <class K> auto radix_histogram_kernel() {
  return [](vector_view<const K> keys, vector_view<unsigned> hist,
            std::size_t nArg) {
    constexpr unsigned Passes = radix_key<K>::passes;
    const std::size_t n = stage(nArg);
    shared_array<unsigned, Passes * 256> counts;
    const unsigned tid = __mstage_tid_x();
    for (unsigned i = tid; i < Passes * 256; i += radix_block)
      counts[i] = 0;
    __mstage_barrier();
    const std::size_t base =
        std::size_t(__mstage_ctaid_x()) * radix_histogram_items;
    for (unsigned i = 0; i < radix_histogram_items / radix_block; ++i) {
      std::size_t k = base + i * radix_block + tid;
      if (k < n) {
        auto bits = radix_key<K>::to_bits(keys.data()[k]);
        for (unsigned p = 0; p < Passes; ++p)
          atomic_add<scope::block>(
              &counts.data()[p * 256 + (unsigned(bits >> (8 * p)) & 255u)], 1u);
      }
    }
    __mstage_barrier();
    for (unsigned i = tid; i < Passes * 256; i += radix_block)
      if (unsigned c = counts[i])
        atomic_add(&hist.data()[i], c);
  };
}

// Turns each pass's counts into the digits' starts (one block per pass).
inline auto radix_starts_kernel() {
  return [](vector_view<unsigned> hist) {
    shared_array<raw_storage<unsigned>, radix_warps> warpMem;
    unsigned *h = hist.data() + __mstage_ctaid_x() * 256 + __mstage_tid_x();
    unsigned total;
    *h = block_exclusive_sum<radix_block>(*h, warpMem.data(), total);
  };
}

// One pass: keysIn (and valuesIn) by digit `pass`, into keysOut (valuesOut),
// Items keys a thread. status holds the tile counter, then 256 flags per
// tile, all zero.
template <class K, class V, bool HasValues, unsigned Items>
auto radix_pass_kernel() {
  return [](vector_view<const K> keysIn, vector_view<K> keysOut,
            vector_view<const V> valuesIn, vector_view<V> valuesOut,
            vector_view<const unsigned> starts, vector_view<unsigned> status,
            std::size_t nArg, unsigned passArg) {
    constexpr unsigned TileItems = radix_block * Items;
    const std::size_t n = stage(nArg);
    const unsigned pass = stage(passArg);

    shared_array<raw_storage<K>, TileItems> keyMem;
    shared_array<raw_storage<V>, HasValues ? TileItems : 1> valueMem;
    shared_array<unsigned, radix_warps * 256> warpCounts;
    shared_array<unsigned, 256> globalBase;
    shared_array<raw_storage<unsigned>, radix_warps> scanMem;
    shared_array<unsigned, 1> tileMem;
    K *sortedKeys = reinterpret_cast<K *>(keyMem.data());
    V *sortedValues = reinterpret_cast<V *>(valueMem.data());
    unsigned *counts = warpCounts.data();

    const unsigned tid = __mstage_tid_x(), lane = tid % 32, warp = tid / 32;
    if (tid == 0)
      tileMem[0] = atomic_add(status.data(), 1u);
    for (unsigned i = tid; i < radix_warps * 256; i += radix_block)
      counts[i] = 0;
    __mstage_barrier();
    const unsigned tile = tileMem[0];
    const std::size_t base = std::size_t(tile) * TileItems;
    const unsigned valid =
        n - base < TileItems ? unsigned(n - base) : TileItems;

    // Each warp loads a contiguous part of the tile, item by item, so that
    // the order (warp, item, lane) is the keys' order. Past the end, a key
    // has the last digit and so ranks after every real key of the tile.
    const unsigned segment = warp * 32 * Items;
    K keys[Items];
    V values[HasValues ? Items : 1];
    unsigned digits[Items], ranks[Items];
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {
      unsigned k = segment + i * 32 + lane;
      if (k < valid) {
        keys[i] = keysIn.data()[base + k];
        if constexpr (HasValues)
          values[i] = valuesIn.data()[base + k];
        digits[i] = radix_key<K>::digit(keys[i], pass);
      } else {
        digits[i] = 255;
      }
    }

    // Rank within the warp: the lanes with the same digit (eight ballots),
    // and the warp's count of that digit so far.
    // Unrolled, so that keys, digits and ranks stay in registers (partly
    // unrolled, the loop indexed them in local memory).
    const unsigned lowerLanes = (1u << lane) - 1;
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {
      unsigned d = digits[i];
      unsigned peers = ~0u;
      for (unsigned b = 0; b < 8; ++b) {
        bool set = (d >> b) & 1u;
        unsigned vote = __mstage_ballot(~0u, set);
        peers &= set ? vote : ~vote;
      }
      unsigned *count = &counts[warp * 256 + d];
      unsigned before = *count;
      __mstage_syncwarp(~0u);
      if ((peers & lowerLanes) == 0)
        *count = before + __builtin_popcount(peers);
      __mstage_syncwarp(~0u);
      ranks[i] = before + __builtin_popcount(peers & lowerLanes);
    }
    __mstage_barrier();

    // Thread d: digit d's count in the tile, and where each warp's keys of
    // it start among the warps'.
    const unsigned d = tid;
    unsigned count = 0;
    for (unsigned w = 0; w < radix_warps; ++w) {
      unsigned c = counts[w * 256 + d];
      counts[w * 256 + d] = count;
      count += c;
    }
    unsigned *flags = status.data() + 1;
    atomic_ref<unsigned>(flags[std::size_t(tile) * 256 + d])
        .store((tile == 0 ? radix_flag_inclusive : radix_flag_aggregate) |
                   count,
               std::memory_order_relaxed);
    unsigned total;
    const unsigned tileStart =
        block_exclusive_sum<radix_block>(count, scanMem.data(), total);
    for (unsigned w = 0; w < radix_warps; ++w)
      counts[w * 256 + d] += tileStart;

    // The keys of digit d in the tiles before this one.
    unsigned before = 0;
    if (tile != 0) {
      for (std::size_t t = tile - 1;; --t) {
        unsigned f;
        do
          f = atomic_ref<unsigned>(flags[t * 256 + d])
                  .load(std::memory_order_relaxed);
        while ((f & ~radix_count_mask) == 0);
        before += f & radix_count_mask;
        if ((f & ~radix_count_mask) == radix_flag_inclusive)
          break;
      }
      atomic_ref<unsigned>(flags[std::size_t(tile) * 256 + d])
          .store(radix_flag_inclusive | (before + count),
                 std::memory_order_relaxed);
    }
    globalBase[d] = starts.data()[d] + before - tileStart;
    __mstage_barrier();

    // Sort the tile in shared memory, then write it out in order: a digit's
    // keys are consecutive there and in the output.
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {
      unsigned at = counts[warp * 256 + digits[i]] + ranks[i];
      if (at < valid) {
        sortedKeys[at] = keys[i];
        if constexpr (HasValues)
          sortedValues[at] = values[i];
      }
    }
    __mstage_barrier();
    for (unsigned i = 0; i < Items; ++i) {
      unsigned j = i * radix_block + tid;
      if (j < valid) {
        K key = sortedKeys[j];
        unsigned to = globalBase[radix_key<K>::digit(key, pass)] + j;
        keysOut.data()[to] = key;
        if constexpr (HasValues)
          valuesOut.data()[to] = sortedValues[j];
      }
    }
  };
}

// Sorts keys (and values with them) on s; both have n elements. Items 0
// takes the default keys a thread.
template <class K, class V, bool HasValues, unsigned ItemsArg = 0>
void radix_sort_run(const char *call, vector_view<K> keys,
                    vector_view<V> values, stream_ref s) {
  const std::size_t n = keys.size();
  if (n <= 1)
    return;
  if (n > radix_max_keys)
    throw error(std::string("mstage: ") + call + ": " + std::to_string(n) +
                " keys are more than one call sorts (at most " +
                std::to_string(radix_max_keys) + ")");
  constexpr unsigned Passes = radix_key<K>::passes;
  constexpr unsigned Items =
      ItemsArg ? ItemsArg : radix_items_per_thread<K, V, HasValues>();
  constexpr std::size_t TileItems = radix_block * Items;
  const std::size_t tiles = (n + TileItems - 1) / TileItems;

  // The scratch: the counts, the look-back flags, the other buffers.
  const std::size_t histBytes = Passes * 256 * 4;
  const std::size_t statusBytes = align_up(4 + tiles * 256 * 4, 16);
  const std::size_t keyBytes = align_up(n * sizeof(K), 16);
  const std::size_t valueBytes = HasValues ? n * sizeof(V) : 0;
  temporary scratch(histBytes + statusBytes + keyBytes + valueBytes, s);
  vector_view<unsigned> hist = scratch.view<unsigned>(0, Passes * 256);
  vector_view<unsigned> status =
      scratch.view<unsigned>(histBytes, 1 + tiles * 256);
  vector_view<K> keysTmp = scratch.view<K>(histBytes + statusBytes, n);
  vector_view<V> valuesTmp =
      HasValues ? scratch.view<V>(histBytes + statusBytes + keyBytes, n)
                : vector_view<V>();

  scratch.zero(histBytes);
  kernel(radix_histogram_kernel<K>(),
         dim3((n + radix_histogram_items - 1) / radix_histogram_items),
         dim3(radix_block))
      .on(s)(vector_view<const K>(keys), hist, n);
  kernel(radix_starts_kernel(), dim3(Passes), dim3(radix_block)).on(s)(hist);

  vector_view<K> keysFrom = keys, keysTo = keysTmp;
  vector_view<V> valuesFrom = values, valuesTo = valuesTmp;
  auto pass = kernel(radix_pass_kernel<K, V, HasValues, Items>(), dim3(tiles),
                     dim3(radix_block))
                  .on(s);
  for (unsigned p = 0; p < Passes; ++p) {
    // The status follows the counts in the scratch: zero it alone.
    unsigned char zero = 0;
    check(mstage_rt_fill_async(status.data(), &zero, 1, (1 + tiles * 256) * 4,
                               s.get()));
    pass(vector_view<const K>(keysFrom), keysTo,
         vector_view<const V>(valuesFrom), valuesTo,
         vector_view<const unsigned>(hist.data() + p * 256, 256), status, n, p);
    std::swap(keysFrom, keysTo);
    std::swap(valuesFrom, valuesTo);
  }
  if (Passes % 2) {
    check(mstage_rt_copy_device_async(keys.data(), keysTmp.data(),
                                      n * sizeof(K), s.get()));
    if constexpr (HasValues)
      check(mstage_rt_copy_device_async(values.data(), valuesTmp.data(),
                                        n * sizeof(V), s.get()));
  }
}

} // namespace mstage::detail

#endif
