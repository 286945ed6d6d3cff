// A stable merge sort for any comparator: each block sorts a tile of 1024
// elements in shared memory, then each pass merges pairs of sorted runs of
// the whole array, twice as long each time. Every element finds its place in
// the merged run itself, by a binary search in the other run: an element of
// the left run goes after the right run's elements that are less than it,
// one of the right run after the left run's that are not greater, which
// keeps equal elements in order.
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
template <class T> constexpr unsigned sort_merge_items() {
  constexpr std::size_t fit = 20 * 1024 / (sort_merge_block * sizeof(T));
  return fit >= 4 ? 4 : fit >= 2 ? 2 : 1;
}

// Where src[j] goes when the runs [start, mid) and [mid, end) of src merge.
template <class T, class Comp>
std::size_t sort_merge_place(const T *src, std::size_t j, std::size_t start,
                             std::size_t mid, std::size_t end,
                             const Comp &comp) {
  const T x = src[j];
  std::size_t lo, hi;
  if (j < mid) { // the first of the right run that is not less than x
    lo = mid, hi = end;
    while (lo < hi) {
      std::size_t m = lo + (hi - lo) / 2;
      if (comp(src[m], x))
        lo = m + 1;
      else
        hi = m;
    }
    return j + (lo - mid);
  }
  lo = start, hi = mid; // the first of the left run that is greater than x
  while (lo < hi) {
    std::size_t m = lo + (hi - lo) / 2;
    if (comp(x, src[m]))
      hi = m;
    else
      lo = m + 1;
  }
  return (j - mid) + lo;
}

template <class T, class Comp> auto sort_merge_tile_kernel(Comp comp) {
  return [comp](vector_view<T> data, std::size_t nArg) {
    constexpr unsigned Items = sort_merge_items<T>();
    constexpr unsigned Tile = sort_merge_block * Items;
    const std::size_t n = stage(nArg);
    shared_array<raw_storage<T>, Tile> a, b;
    T *src = reinterpret_cast<T *>(a.data());
    T *dst = reinterpret_cast<T *>(b.data());
    const unsigned tid = __mstage_tid_x();
    const std::size_t base = std::size_t(__mstage_ctaid_x()) * Tile;
    const unsigned valid = n - base < Tile ? unsigned(n - base) : Tile;
    for (unsigned i = 0; i < Items; ++i) {
      unsigned j = i * sort_merge_block + tid;
      if (j < valid)
        src[j] = data.data()[base + j];
    }
    __mstage_barrier();
    for (unsigned w = 1; w < valid; w *= 2) {
      for (unsigned i = 0; i < Items; ++i) {
        unsigned j = i * sort_merge_block + tid;
        if (j < valid) {
          unsigned start = j & ~(2 * w - 1);
          unsigned mid = start + w < valid ? start + w : valid;
          unsigned end = start + 2 * w < valid ? start + 2 * w : valid;
          dst[sort_merge_place(src, j, start, mid, end, comp)] = src[j];
        }
      }
      __mstage_barrier();
      T *t = src;
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

template <class T, class Comp> auto sort_merge_pass_kernel(Comp comp) {
  return [comp](vector_view<const T> from, vector_view<T> to, std::size_t nArg,
                std::size_t width) {
    const std::size_t n = stage(nArg);
    const std::size_t j =
        std::size_t(__mstage_ctaid_x()) * sort_merge_block + __mstage_tid_x();
    if (j >= n)
      return;
    std::size_t start = j / (2 * width) * (2 * width);
    std::size_t mid = start + width < n ? start + width : n;
    std::size_t end = start + 2 * width < n ? start + 2 * width : n;
    to.data()[sort_merge_place(from.data(), j, start, mid, end, comp)] =
        from.data()[j];
  };
}

template <class T, class Comp>
void sort_merge_run(vector_view<T> data, const Comp &comp, stream_ref s) {
  constexpr unsigned Tile = sort_merge_block * sort_merge_items<T>();
  const std::size_t n = data.size();
  if (n <= 1)
    return;
  kernel(sort_merge_tile_kernel<T>(comp), dim3((n + Tile - 1) / Tile),
         dim3(sort_merge_block))
      .on(s)(data, n);
  if (n <= Tile)
    return;
  temporary scratch(n * sizeof(T), s);
  vector_view<T> from = data, to = scratch.view<T>(0, n);
  auto pass = kernel(sort_merge_pass_kernel<T>(comp),
                     dim3((n + sort_merge_block - 1) / sort_merge_block),
                     dim3(sort_merge_block))
                  .on(s);
  for (std::size_t w = Tile; w < n; w *= 2) {
    pass(vector_view<const T>(from), to, n, w);
    std::swap(from, to);
  }
  if (from.data() != data.data())
    check(mstage_rt_copy_device_async(data.data(), from.data(), n * sizeof(T),
                                      s.get()));
}

} // namespace mstage::detail

#endif
