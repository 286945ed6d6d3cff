// An LSD radix sort of 8-bit digits in the manner of CUB's Onesweep: one
// kernel counts every pass's digits at once, and each pass is then one
// kernel that reads its keys once and writes them once. A block counts its
// tile's digits per warp (shared atomics), publishes the counts at once,
// ranks its keys stably (warp ballots find the lanes with the same digit,
// one atomic add per digit and warp carries the count across items), sorts
// the tile in shared memory, finds where each digit of its tile goes by a
// decoupled look-back over the tiles before it (one thread per digit), and
// writes the tile out, digit runs contiguous.
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

// The histogram's and the starts' blocks, and a pass's by default: one
// thread per digit (a pass may have more threads, 384 as CUB's, whose first
// 256 do the digits' work).
inline constexpr unsigned radix_block = 256;
inline constexpr unsigned radix_warps = radix_block / 32;
inline constexpr unsigned radix_histogram_items = 4096; // keys per tile
inline constexpr unsigned radix_flag_aggregate = 1u << 30;
inline constexpr unsigned radix_flag_inclusive = 2u << 30;
inline constexpr unsigned radix_count_mask = (1u << 30) - 1;
inline constexpr std::size_t radix_max_keys = radix_count_mask;
inline constexpr unsigned radix_look_back = 4; // flags read at once

// How a pass ranks its tile (both stable; bench/mstage_scan_sort's sweep
// times both).
enum class radix_ranking {
  // CUB's "match, early counts": the warps' digit counts first, by shared
  // atomics, which the tile publishes before it ranks; then per key the
  // lanes with its digit (eight ballots), the last of which adds their
  // number to its warp's running position of the digit (one atomic).
  early_counts,
  // Eight ballots per key, and per-warp counters read and written between
  // two warp barriers per key, so that each key waits for the one before;
  // the counts are published after the ranking (the first version).
  warp_counters,
};

// 16 keys a thread (8 for 8-byte keys) or Wanted, fewer where large keys or
// values would not fit the 48 KiB of static shared memory a block of Block
// threads may have, with its warps' counts (1 KiB a warp) and 1 KiB more.
template <class _Kp, class _Vp, bool HasValues, unsigned Block = radix_block,
          unsigned Wanted = 0>
constexpr unsigned radix_items_per_thread() {
  constexpr unsigned keys = Wanted ? Wanted : sizeof(_Kp) <= 4 ? 16 : 8;
  constexpr std::size_t bytes = sizeof(_Kp) + (HasValues ? sizeof(_Vp) : 0);
  constexpr std::size_t fit = (46 - Block / 32) * 1024 / (Block * bytes);
  return fit < 1 ? 1 : fit < keys ? unsigned(fit) : keys;
}

// Counts the digits of every pass in keys: hist[pass * 256 + digit]. A grid
// that fills the device once walks the tiles of radix_histogram_items keys
// (each thread loads all its keys of a tile before it counts any) and adds
// its counts to hist at the end: one global atomic per block and digit,
// where a block per tile took one per 8192 keys and digit.
template <class _Kp> auto radix_histogram_kernel() {
  return [](vector_view<const _Kp> keys, vector_view<unsigned> hist,
            std::size_t nArg) {
    using Bits = typename radix_key<_Kp>::bits;
    constexpr unsigned Passes = radix_key<_Kp>::passes;
    constexpr unsigned Items = radix_histogram_items / radix_block;
    const unsigned n = unsigned(stage(nArg)); // below 2^30
    shared_array<unsigned, Passes * 256> counts;
    const unsigned tid = __mstage_tid_x();
    for (unsigned i = tid; i < Passes * 256; i += radix_block)
      counts[i] = 0;
    __mstage_barrier();
    const unsigned tiles =
        (n + radix_histogram_items - 1) / radix_histogram_items;
    for (unsigned t = __mstage_ctaid_x(); t < tiles; t += __mstage_nctaid_x()) {
      const unsigned base = t * radix_histogram_items;
      Bits bits[Items];
      for (unsigned i = 0; i < Items; ++i) {
        unsigned k = base + i * radix_block + tid;
        bits[i] = k < n ? radix_key<_Kp>::to_bits(keys.data()[k]) : Bits(0);
      }
      for (unsigned i = 0; i < Items; ++i)
        if (base + i * radix_block + tid < n)
          for (unsigned p = 0; p < Passes; ++p)
            atomic_add<scope::block>(
                &counts.data()[p * 256 + (unsigned(bits[i] >> (8 * p)) & 255u)],
                1u);
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

// The lanes of the warp whose d is this lane's (eight ballots), as CUB's
// MatchAny; every lane of the warp must call it.
inline unsigned radix_match_digit(unsigned d) {
  unsigned peers = ~0u;
  for (unsigned b = 0; b < 8; ++b) {
    bool set = (d >> b) & 1u;
    unsigned vote = __mstage_ballot(~0u, set);
    peers &= set ? vote : ~vote;
  }
  return peers;
}

// One pass: keysIn (and valuesIn) by digit `pass`, into keysOut (valuesOut),
// Block threads (256 or more; thread d < 256 does digit d's work) of Items
// keys, ranked by Rank. status holds the tile counter, then
// 256 flags per tile, all zero. Keys are handled as their ordered bits
// (radix_key<K>::to_bits) from the load to the store.
template <class _Kp, class _Vp, bool HasValues, unsigned Block, unsigned Items,
          radix_ranking Rank>
auto radix_pass_kernel() {
  return [](vector_view<const _Kp> keysIn, vector_view<_Kp> keysOut,
            vector_view<const _Vp> valuesIn, vector_view<_Vp> valuesOut,
            vector_view<const unsigned> starts, vector_view<unsigned> status,
            std::size_t nArg, unsigned passArg) {
    using Key = radix_key<_Kp>;
    using Bits = typename Key::bits;
    static_assert(Block % 32 == 0 && Block >= 256 && Block <= 1024,
                  "mstage: a radix pass has whole warps, a thread per digit");
    constexpr unsigned Warps = Block / 32;
    constexpr unsigned TileItems = Block * Items;
    constexpr bool Early = Rank == radix_ranking::early_counts;
    // Fewer than 2^30 keys: 32-bit indices within the views.
    const unsigned n = unsigned(stage(nArg));
    const unsigned pass = stage(passArg);
    auto digitOf = [&](Bits b) { return unsigned(b >> (8 * pass)) & 255u; };

    shared_array<Bits, TileItems> keyMem;
    shared_array<raw_storage<_Vp>, HasValues ? TileItems : 1> valueMem;
    shared_array<unsigned, Warps * 256> warpCounts;
    shared_array<unsigned, 256> globalBase;
    shared_array<raw_storage<unsigned>, Warps> scanMem;
    shared_array<unsigned, 1> tileMem;
    Bits *sortedKeys = keyMem.data();
    _Vp *sortedValues = reinterpret_cast<_Vp *>(valueMem.data());
    unsigned *counts = warpCounts.data();

    const unsigned tid = __mstage_tid_x(), lane = tid % 32, warp = tid / 32;
    if (tid == 0)
      tileMem[0] = atomic_add(status.data(), 1u);
    for (unsigned i = tid; i < Warps * 256; i += Block)
      counts[i] = 0;
    __mstage_barrier();
    const unsigned tile = tileMem[0];
    const unsigned base = tile * TileItems;
    const unsigned valid = n - base < TileItems ? n - base : TileItems;

    // Each warp loads a contiguous part of the tile, item by item, so that
    // the order (warp, item, lane) is the keys' order. Past the end, a key
    // has every bit set: the last digit, after every real key of the tile.
    const unsigned segment = warp * 32 * Items;
    Bits bits[Items];
    _Vp values[HasValues ? Items : 1];
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {
      unsigned k = segment + i * 32 + lane;
      if (k < valid) {
        bits[i] = Key::to_bits(keysIn.data()[base + k]);
        if constexpr (HasValues)
          values[i] = valuesIn.data()[base + k];
      } else {
        bits[i] = Bits(~Bits(0));
      }
    }

    // counts[w * 256 + d]: warp w's keys of digit d. The first way counts
    // them before ranking (shared atomics, no return value); the second
    // ranks within the warp as it counts.
    // Both are unrolled, so that keys and ranks stay in registers (partly
    // unrolled, the loop indexed them in local memory).
    unsigned ranks[Items];
    const unsigned lowerLanes = (1u << lane) - 1;
    if constexpr (Early) {
#pragma unroll
      for (unsigned i = 0; i < Items; ++i)
        atomic_add<scope::block>(&counts[warp * 256 + digitOf(bits[i])], 1u);
    } else {
#pragma unroll
      for (unsigned i = 0; i < Items; ++i) {
        unsigned d = digitOf(bits[i]);
        unsigned peers = radix_match_digit(d);
        unsigned *count = &counts[warp * 256 + d];
        unsigned before = *count;
        __mstage_syncwarp(~0u);
        if ((peers & lowerLanes) == 0)
          *count = before + __builtin_popcount(peers);
        __mstage_syncwarp(~0u);
        ranks[i] = before + __builtin_popcount(peers & lowerLanes);
      }
    }
    __mstage_barrier();

    // Thread d: digit d's count in the tile, published at once, and where
    // each warp's keys of it start in the sorted tile.
    const bool digitThread = Block == 256 || tid < 256;
    const unsigned d = digitThread ? tid : 0;
    unsigned count = 0;
    unsigned *flags = status.data() + 1;
    if (digitThread) {
      for (unsigned w = 0; w < Warps; ++w) {
        unsigned c = counts[w * 256 + d];
        counts[w * 256 + d] = count;
        count += c;
      }
      atomic_ref<unsigned>(flags[std::size_t(tile) * 256 + d])
          .store((tile == 0 ? radix_flag_inclusive : radix_flag_aggregate) |
                     count,
                 std::memory_order_relaxed);
    }
    unsigned total;
    const unsigned tileStart =
        block_exclusive_sum<Block>(count, scanMem.data(), total);
    if (digitThread)
      for (unsigned w = 0; w < Warps; ++w)
        counts[w * 256 + d] += tileStart;

    // The early way ranks now: per key, the lanes with its digit, the last
    // of which moves its warp's position of the digit past them all (the
    // warp's atomics run in program order, item by item). The sorted tile
    // is written before the look-back, whose loads it overlaps.
    if constexpr (Early) {
      __mstage_barrier();
      const unsigned lanesUpTo = ~0u >> (31 - lane);
#pragma unroll
      for (unsigned i = 0; i < Items; ++i) {
        unsigned d = digitOf(bits[i]);
        unsigned peers = radix_match_digit(d);
        unsigned leader = 31 - __builtin_clz(peers);
        unsigned upTo = __builtin_popcount(peers & lanesUpTo);
        unsigned at = 0;
        if (lane == leader)
          at = atomic_add<scope::block>(&counts[warp * 256 + d], upTo);
        at = unsigned(__mstage_shfl_i32(~0u, int(at), int(leader), 32));
        ranks[i] = at + upTo - 1;
      }
#pragma unroll
      for (unsigned i = 0; i < Items; ++i) {
        sortedKeys[ranks[i]] = bits[i];
        if constexpr (HasValues)
          sortedValues[ranks[i]] = values[i];
      }
    }

    // The keys of digit d in the tiles before this one, from the nearest
    // back to the first inclusive flag. The flags are read a batch at a
    // time (independent loads: one round trip for up to radix_look_back
    // tiles that have only their own counts); a tile that has published
    // nothing yet is read again.
    unsigned before = 0;
    if (digitThread && tile != 0) {
      unsigned next = tile - 1; // the nearest tile not summed yet
      for (bool done = false; !done;) {
        // Past tile 0, which is inclusive, nothing is summed.
        unsigned f[radix_look_back];
#pragma unroll
        for (unsigned j = 0; j < radix_look_back; ++j)
          f[j] =
              j <= next
                  ? atomic_ref<unsigned>(flags[std::size_t(next - j) * 256 + d])
                        .load(std::memory_order_relaxed)
                  : radix_flag_inclusive;
        unsigned j = 0;
#pragma unroll
        for (; j < radix_look_back; ++j) {
          unsigned kind = f[j] & ~radix_count_mask;
          if (kind == 0)
            break;
          before += f[j] & radix_count_mask;
          if (kind == radix_flag_inclusive) {
            done = true;
            break;
          }
        }
        next -= j;
      }
      atomic_ref<unsigned>(flags[std::size_t(tile) * 256 + d])
          .store(radix_flag_inclusive | (before + count),
                 std::memory_order_relaxed);
    }
    if (digitThread)
      globalBase[d] = starts.data()[d] + before - tileStart;
    __mstage_barrier();

    // The other way sorts the tile in shared memory now. Then the tile goes
    // out in order: a digit's keys are consecutive there and in the output.
    if constexpr (!Early) {
#pragma unroll
      for (unsigned i = 0; i < Items; ++i) {
        unsigned at = counts[warp * 256 + digitOf(bits[i])] + ranks[i];
        sortedKeys[at] = bits[i];
        if constexpr (HasValues)
          sortedValues[at] = values[i];
      }
      __mstage_barrier();
    }
    for (unsigned i = 0; i < Items; ++i) {
      unsigned j = i * Block + tid;
      if (j < valid) {
        Bits b = sortedKeys[j];
        unsigned to = globalBase[digitOf(b)] + j;
        keysOut.data()[to] = Key::from_bits(b);
        if constexpr (HasValues)
          valuesOut.data()[to] = sortedValues[j];
      }
    }
  };
}

// Sorts keys (and values with them) on s; both have n elements. Passes of
// BlockArg threads of ItemsArg keys (0: the defaults), fewer keys where
// they would not fit.
template <class _Kp, class _Vp, bool HasValues, unsigned BlockArg = 0,
          unsigned ItemsArg = 0,
          radix_ranking Rank = radix_ranking::early_counts>
void radix_sort_run(const char *call, vector_view<_Kp> keys,
                    vector_view<_Vp> values, stream_ref s) {
  const std::size_t n = keys.size();
  if (n <= 1)
    return;
  if (n > radix_max_keys)
    throw error(std::string("mstage: ") + call + ": " + std::to_string(n) +
                " keys are more than one call sorts (at most " +
                std::to_string(radix_max_keys) + ")");
  constexpr unsigned Passes = radix_key<_Kp>::passes;
  constexpr unsigned Block = BlockArg ? BlockArg : radix_block;
  constexpr unsigned Items =
      radix_items_per_thread<_Kp, _Vp, HasValues, Block, ItemsArg>();
  constexpr std::size_t TileItems = Block * Items;
  const std::size_t tiles = (n + TileItems - 1) / TileItems;

  // The scratch: the counts and the look-back flags, which the passes
  // write; the other buffers, in an allocation of their own, so that the
  // launch facts see a pass's input alone in its allocation (non-coherent
  // loads).
  const std::size_t histBytes = Passes * 256 * 4;
  const std::size_t statusBytes = align_up(4 + tiles * 256 * 4, 16);
  const std::size_t keyBytes = align_up(n * sizeof(_Kp), 16);
  const std::size_t valueBytes = HasValues ? n * sizeof(_Vp) : 0;
  temporary scratch(histBytes + statusBytes, s);
  temporary buffers(keyBytes + valueBytes, s);
  vector_view<unsigned> hist = scratch.view<unsigned>(0, Passes * 256);
  vector_view<unsigned> status =
      scratch.view<unsigned>(histBytes, 1 + tiles * 256);
  vector_view<_Kp> keysTmp = buffers.view<_Kp>(0, n);
  vector_view<_Vp> valuesTmp =
      HasValues ? buffers.view<_Vp>(keyBytes, n) : vector_view<_Vp>();

  scratch.zero(histBytes);
  kernel("mstage::sort::radix_histogram", radix_histogram_kernel<_Kp>(),
         dim3(grid_for((n + radix_histogram_items - 1) / radix_histogram_items,
                       radix_block)),
         dim3(radix_block))
      .on(s)(vector_view<const _Kp>(keys), hist, n);
  kernel("mstage::sort::radix_starts", radix_starts_kernel(), dim3(Passes),
         dim3(radix_block))
      .on(s)(hist);

  vector_view<_Kp> keysFrom = keys, keysTo = keysTmp;
  vector_view<_Vp> valuesFrom = values, valuesTo = valuesTmp;
  auto pass =
      kernel("mstage::sort::radix_pass",
             radix_pass_kernel<_Kp, _Vp, HasValues, Block, Items, Rank>(),
             dim3(tiles), dim3(Block))
          .on(s);
  for (unsigned p = 0; p < Passes; ++p) {
    // The status follows the counts in the scratch: zero it alone.
    unsigned char zero = 0;
    check(mstage_rt_fill_async(status.data(), &zero, 1, (1 + tiles * 256) * 4,
                               s.get()));
    pass(vector_view<const _Kp>(keysFrom), keysTo,
         vector_view<const _Vp>(valuesFrom), valuesTo,
         vector_view<const unsigned>(hist.data() + p * 256, 256), status, n, p);
    std::swap(keysFrom, keysTo);
    std::swap(valuesFrom, valuesTo);
  }
  if (Passes % 2) {
    check(mstage_rt_copy_device_async(keys.data(), keysTmp.data(),
                                      n * sizeof(_Kp), s.get()));
    if constexpr (HasValues)
      check(mstage_rt_copy_device_async(values.data(), valuesTmp.data(),
                                        n * sizeof(_Vp), s.get()));
  }
}

} // namespace mstage::detail

#endif
