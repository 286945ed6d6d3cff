// A stable merge sort for any comparator: each block sorts a tile of 256 x
// Items elements in shared memory, then each pass merges pairs of sorted
// runs of the whole array, twice as long each time. A merge is split along
// its merge path (the diagonal searches of merge_path): each block of a pass
// takes a tile of the output and the parts of the two runs that make it, and
// each thread merges Items outputs sequentially. The splits come from one
// tree of searches that every thread shares, so that even a comparator that
// is not a strict weak order (< on floats with NaNs) gives a permutation of
// the input, where an element placing itself by a binary search of its own
// would collide with another.
#ifndef MSTAGE_ALGORITHM_DETAIL_SORT_MERGE_HPP
#define MSTAGE_ALGORITHM_DETAIL_SORT_MERGE_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/builtins.h"
#include "mstage/kernel.hpp"
#include "mstage/shared_array.hpp"
#include "mstage/stage.hpp"

#include <cstddef>
#include <utility>

namespace mstage::detail {

inline constexpr unsigned sort_merge_block = 256;
// 4 elements a thread, fewer for large T: the tile's two buffers stay within
// the 48 KiB of static shared memory a block may have.
template <class _Tp> constexpr unsigned sort_merge_items() {
  constexpr std::size_t fit = 20 * 1024 / (sort_merge_block * sizeof(_Tp));
  return fit >= 4 ? 4 : fit >= 2 ? 2 : 1;
}

// The merge path of runs a (na elements) and b (nb): how many of the
// merge's first d elements come from a, found by a binary search between
// lo and hi. An element of a goes before the elements of b that are not
// less than it, which keeps equal elements in order.
template <class _Tp, class Comp>
std::size_t merge_path_search(const _Tp *a, const _Tp *b, std::size_t d,
                              std::size_t lo, std::size_t hi,
                              const Comp &comp) {
  while (lo < hi) {
    std::size_t m = lo + (hi - lo) / 2;
    if (comp(b[d - 1 - m], a[m]))
      hi = m;
    else
      lo = m + 1;
  }
  return lo;
}

// The merge path at diagonal d, a multiple of grain or na + nb: found as
// the split of the middle diagonal (on the grid of grain) of the part of
// the path still open, then of the half holding d, and so on, each search
// bounded by the splits found before. Every thread that asks for a
// diagonal takes the same tree of splits, so the splits they find never
// cross, whatever comp answers: the merge is a permutation of its runs even
// for a comparator that is not a strict weak order (< with NaNs). For one
// that is, each split is the only one, the binary search's.
template <class _Tp, class Comp>
std::size_t merge_path(const _Tp *a, std::size_t na, const _Tp *b,
                       std::size_t nb, std::size_t d, std::size_t grain,
                       const Comp &comp) {
  std::size_t dl = 0, il = 0, dr = na + nb, ir = na;
  while (d != dl && d != dr) {
    std::size_t steps = (dr - dl + grain - 1) / grain;
    std::size_t dm = dl + steps / 2 * grain; // dl < dm < dr
    std::size_t jl = dl - il, jr = dr - ir;
    std::size_t lo = dm - il > jr ? dm - jr : il;
    std::size_t hi = dm - jl < ir ? dm - jl : ir;
    std::size_t im = merge_path_search(a, b, dm, lo, hi, comp);
    if (d < dm)
      dr = dm, ir = im;
    else
      dl = dm, il = im;
  }
  return d == dl ? il : ir;
}

// Merges a[i, iend) and b[j, jend) into out[0, count), count being the
// sum of the two lengths: a's element first unless b's is less.
template <class _Tp, class Comp>
void merge_sequential(const _Tp *a, std::size_t i, std::size_t iend,
                      const _Tp *b, std::size_t j, std::size_t jend, _Tp *out,
                      unsigned count, const Comp &comp) {
  for (unsigned k = 0; k < count; ++k) {
    bool from_a = i < iend && (j >= jend || !comp(b[j], a[i]));
    out[k] = from_a ? a[i++] : b[j++];
  }
}

// Thread tid's part of the merge of the sorted runs of width w in
// src[0, valid) (shared memory) into dst: Items outputs of its pair of
// runs, at a diagonal on the grid of Items.
template <class _Tp, unsigned Items, class Comp>
void merge_runs_in_block(const _Tp *src, _Tp *dst, unsigned valid, unsigned w,
                         unsigned tid, const Comp &comp) {
  const unsigned first = tid * Items;
  if (first >= valid)
    return;
  const unsigned start = first / (2 * w) * (2 * w);
  const unsigned mid = start + w < valid ? start + w : valid;
  const unsigned end = start + 2 * w < valid ? start + 2 * w : valid;
  const unsigned d0 = first - start;
  const unsigned d1 = d0 + Items < end - start ? d0 + Items : end - start;
  const _Tp *a = src + start, *b = src + mid;
  const std::size_t na = mid - start, nb = end - mid;
  const std::size_t i0 = merge_path(a, na, b, nb, d0, Items, comp);
  const std::size_t i1 = merge_path(a, na, b, nb, d1, Items, comp);
  merge_sequential(a, i0, i1, b, d0 - i0, d1 - i1, dst + first, d1 - d0, comp);
}

template <class _Tp, class Comp> auto sort_merge_tile_kernel(Comp comp) {
  return [comp](vector_view<_Tp> data, std::size_t nArg) {
    constexpr unsigned Items = sort_merge_items<_Tp>();
    constexpr unsigned Tile = sort_merge_block * Items;
    const std::size_t n = stage(nArg);
    shared_array<raw_storage<_Tp>, Tile> a, b;
    _Tp *src = reinterpret_cast<_Tp *>(a.data());
    _Tp *dst = reinterpret_cast<_Tp *>(b.data());
    const unsigned tid = __mstage_tid_x();
    const std::size_t base = std::size_t(__mstage_ctaid_x()) * Tile;
    const unsigned valid = n - base < Tile ? unsigned(n - base) : Tile;
    for (unsigned i = 0; i < Items; ++i) {
      unsigned j = i * sort_merge_block + tid;
      if (j < valid)
        src[j] = data.data()[base + j];
    }
    __mstage_barrier();
    // Each thread's Items consecutive elements, by insertion (stable, and
    // a permutation whatever comp says), then runs of Items, 2 Items, ...
    // merged pairwise.
    const unsigned mine = tid * Items;
    for (unsigned i = 1; i < Items; ++i)
      if (mine + i < valid) {
        _Tp x = src[mine + i];
        unsigned k = mine + i;
        for (; k > mine && comp(x, src[k - 1]); --k)
          src[k] = src[k - 1];
        src[k] = x;
      }
    __mstage_barrier();
    for (unsigned w = Items; w < valid; w *= 2) {
      merge_runs_in_block<_Tp, Items>(src, dst, valid, w, tid, comp);
      __mstage_barrier();
      _Tp *t = src;
      src = dst;
      dst = t;
    }
    for (unsigned i = 0; i < Items; ++i) {
      unsigned j = i * sort_merge_block + tid;
      if (j < valid)
        data.data()[base + j] = src[j];
    }
  };
}

// One pass: the pairs of runs of width w (a multiple of the tile) merged,
// a block per tile of the output. The block's part of its pair is found on
// the merge path (a grid of Tile), loaded into shared memory and merged
// there, Items outputs a thread.
template <class _Tp, class Comp> auto sort_merge_pass_kernel(Comp comp) {
  return [comp](vector_view<const _Tp> from, vector_view<_Tp> to,
                std::size_t nArg, std::size_t width) {
    constexpr unsigned Items = sort_merge_items<_Tp>();
    constexpr unsigned Tile = sort_merge_block * Items;
    const std::size_t n = stage(nArg);
    shared_array<raw_storage<_Tp>, Tile> sa, sb;
    shared_array<std::size_t, 2> split;
    _Tp *src = reinterpret_cast<_Tp *>(sa.data());
    _Tp *dst = reinterpret_cast<_Tp *>(sb.data());
    const unsigned tid = __mstage_tid_x();
    const std::size_t base = std::size_t(__mstage_ctaid_x()) * Tile;
    const std::size_t start = base / (2 * width) * (2 * width);
    const std::size_t mid = start + width < n ? start + width : n;
    const std::size_t end = start + 2 * width < n ? start + 2 * width : n;
    const _Tp *a = from.data() + start, *b = from.data() + mid;
    const std::size_t na = mid - start, nb = end - mid;
    const std::size_t d0 = base - start;
    const std::size_t d1 = d0 + Tile < end - start ? d0 + Tile : end - start;
    if (tid < 2)
      split[tid] = merge_path(a, na, b, nb, tid ? d1 : d0, Tile, comp);
    __mstage_barrier();
    const std::size_t i0 = split[0], i1 = split[1];
    const unsigned fromA = unsigned(i1 - i0);
    const unsigned valid = unsigned(d1 - d0);
    const std::size_t j0 = d0 - i0;
    for (unsigned i = 0; i < Items; ++i) {
      unsigned k = i * sort_merge_block + tid;
      if (k < valid)
        src[k] = k < fromA ? a[i0 + k] : b[j0 + (k - fromA)];
    }
    __mstage_barrier();
    const unsigned first = tid * Items;
    if (first < valid) {
      const unsigned last = first + Items < valid ? first + Items : valid;
      const _Tp *la = src, *lb = src + fromA;
      const std::size_t nla = fromA, nlb = valid - fromA;
      const std::size_t k0 = merge_path(la, nla, lb, nlb, first, Items, comp);
      const std::size_t k1 = merge_path(la, nla, lb, nlb, last, Items, comp);
      merge_sequential(la, k0, k1, lb, first - k0, last - k1, dst + first,
                       last - first, comp);
    }
    __mstage_barrier();
    for (unsigned i = 0; i < Items; ++i) {
      unsigned k = i * sort_merge_block + tid;
      if (k < valid)
        to.data()[base + k] = dst[k];
    }
  };
}

template <class _Tp, class Comp>
void sort_merge_run(vector_view<_Tp> data, const Comp &comp, stream_ref s) {
  constexpr unsigned Tile = sort_merge_block * sort_merge_items<_Tp>();
  const std::size_t n = data.size();
  if (n <= 1)
    return;
  kernel("mstage::sort::merge_tile", sort_merge_tile_kernel<_Tp>(comp),
         dim3((n + Tile - 1) / Tile), dim3(sort_merge_block))
      .on(s)(data, n);
  if (n <= Tile)
    return;
  temporary scratch(n * sizeof(_Tp), s);
  vector_view<_Tp> from = data, to = scratch.view<_Tp>(0, n);
  auto pass =
      kernel("mstage::sort::merge_pass", sort_merge_pass_kernel<_Tp>(comp),
             dim3((n + Tile - 1) / Tile), dim3(sort_merge_block))
          .on(s);
  for (std::size_t w = Tile; w < n; w *= 2) {
    pass(vector_view<const _Tp>(from), to, n, w);
    std::swap(from, to);
  }
  if (from.data() != data.data())
    check(mstage_rt_copy_device_async(data.data(), from.data(), n * sizeof(_Tp),
                                      s.get()));
}

} // namespace mstage::detail

#endif
