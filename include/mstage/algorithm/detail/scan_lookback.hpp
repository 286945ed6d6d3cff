// The decoupled look-back of a single-pass scan (Merrill and Garland): each
// tile publishes its aggregate as soon as it has it, and its inclusive prefix
// once it knows it; a tile finds its exclusive prefix by reading its
// predecessors' flags, a warp's width at a time, from the nearest back to
// the first one that is inclusive.
//
// Progress: tiles are numbered in the order their blocks start (an atomic
// counter, not the block index), so a tile waits only for tiles whose blocks
// are already running. That holds on the GPU and on the CPU back end, where
// an OS thread runs a block to its end before it starts another.
#ifndef MSTAGE_ALGORITHM_DETAIL_SCAN_LOOKBACK_HPP
#define MSTAGE_ALGORITHM_DETAIL_SCAN_LOOKBACK_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/warp.hpp"
#include "mstage/atomic.hpp"
#include "mstage/builtins.h"

#include <atomic>
#include <cstddef>
#include <cstring>

namespace mstage::detail {

enum : unsigned {
  scan_status_invalid = 0,   // nothing published yet
  scan_status_aggregate = 1, // the tile's own reduction
  scan_status_inclusive = 2, // the reduction of this tile and all before it
};

// The tile flags of T's of at most 4 bytes: one 64-bit word per tile, the
// status in the low half and the value in the high one, so that a relaxed
// atomic store publishes both at once and no fence is needed.
template <class _Tp, bool Packed = (sizeof(_Tp) <= 4)> struct scan_tile_status {
  unsigned long long *words;
  std::size_t tiles;

  static std::size_t bytes(std::size_t tiles) { return tiles * 8; }
  // The bytes that must be zero before the scan (all of them).
  static std::size_t flag_bytes(std::size_t tiles) { return bytes(tiles); }

  void publish(unsigned tile, unsigned status, const _Tp &v) const {
    unsigned bits = 0;
    std::memcpy(&bits, static_cast<const void *>(&v), sizeof(_Tp));
    atomic_ref<unsigned long long>(words[tile])
        .store(status | (static_cast<unsigned long long>(bits) << 32),
               std::memory_order_relaxed);
  }
  unsigned peek(unsigned tile, _Tp &v) const {
    unsigned long long w = atomic_ref<unsigned long long>(words[tile])
                               .load(std::memory_order_relaxed);
    unsigned bits = static_cast<unsigned>(w >> 32);
    std::memcpy(static_cast<void *>(&v), &bits, sizeof(_Tp));
    return static_cast<unsigned>(w);
  }
};

// Larger T's: a 32-bit flag per tile and the aggregates and inclusive
// prefixes in arrays of their own; the value is written before the flag's
// release store, and read after its acquire load.
template <class _Tp> struct scan_tile_status<_Tp, false> {
  unsigned long long *words;
  std::size_t tiles;

  static std::size_t flag_bytes(std::size_t tiles) {
    return align_up(tiles * 4, 16);
  }
  static std::size_t bytes(std::size_t tiles) {
    return flag_bytes(tiles) + 2 * align_up(tiles * sizeof(_Tp), 16);
  }

  unsigned *flags() const { return reinterpret_cast<unsigned *>(words); }
  // The array of aggregates (Which 0) or inclusive prefixes (1); the scratch
  // holds only as many tiles as the launch has, which values() is told.
  _Tp *values(std::size_t tiles, unsigned which) const {
    return reinterpret_cast<_Tp *>(reinterpret_cast<unsigned char *>(words) +
                                   flag_bytes(tiles) +
                                   which * align_up(tiles * sizeof(_Tp), 16));
  }

  void publish(unsigned tile, unsigned status, const _Tp &v) const {
    values(tiles, status - 1)[tile] = v;
    atomic_ref<unsigned>(flags()[tile])
        .store(status, std::memory_order_release);
  }
  unsigned peek(unsigned tile, _Tp &v) const {
    unsigned s =
        atomic_ref<unsigned>(flags()[tile]).load(std::memory_order_acquire);
    if (s != scan_status_invalid)
      v = values(tiles, s - 1)[tile];
    return s;
  }
};

// Pauses of a look-back that sleeps, CUB's sm_90 tuning of its int sum
// (fixed_delay_constructor_t<648, 1245>): before the first poll, and before
// each poll that repeats one. CUB sleeps only in grids of 500 blocks or
// more.
inline constexpr unsigned scan_first_sleep_ns = 1245;
inline constexpr unsigned scan_poll_sleep_ns = 648;
inline constexpr unsigned scan_sleep_min_tiles = 500;

// Run by the 32 lanes of one warp of tile `tile` (> 0): the reduction of
// all tiles before it, in order. With Sleep, the warp pauses before it
// polls (spinning, it polls without pause).
template <class _Tp, bool Sleep = false, class _Op, class Status>
_Tp scan_look_back(const Status &st, unsigned tile, const _Op &op) {
  unsigned lane = __mstage_lane_id();
  _Tp prefix = from_raw(raw_storage<_Tp>{});
  bool have = false;
  long long nearest = static_cast<long long>(tile) - 1; // lane 0's tile
  if constexpr (Sleep)
    __mstage_nanosleep(scan_first_sleep_ns);
  for (;;) {
    long long t = nearest - lane;
    _Tp v = from_raw(raw_storage<_Tp>{});
    unsigned s;
    // Tiles before the first (t < 0) never count: the first tile publishes
    // only an inclusive prefix, which ends the window before them.
    for (bool first = true;; first = false) {
      if (Sleep && !first)
        __mstage_nanosleep(scan_poll_sleep_ns);
      s = t >= 0 ? st.peek(static_cast<unsigned>(t), v) : scan_status_inclusive;
      if (__mstage_all(~0u, s != scan_status_invalid))
        break;
    }
    unsigned inclusive = __mstage_ballot(~0u, s == scan_status_inclusive);
    unsigned last = inclusive ? __builtin_ctz(inclusive) : 31;
    // Lane 0 gets x[last] op ... op x[0]: lanes further back hold earlier
    // tiles, which go on the left.
    for (unsigned d = 1; d < 32; d *= 2) {
      _Tp other = shfl_down_any(v, d);
      if (lane + d <= last)
        v = apply_op(op, other, v);
    }
    _Tp window = shfl_any(v, 0);
    prefix = have ? apply_op(op, window, prefix) : window;
    have = true;
    if (inclusive)
      return prefix;
    nearest -= 32;
  }
}

} // namespace mstage::detail

#endif
