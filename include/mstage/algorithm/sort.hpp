// Sorts, in place, enqueued on the stream (none waits):
//
//   mstage::sort(keys);                 // integer or floating-point keys
//   mstage::sort_by_key(keys, values);  // values follow their keys, stably
//   mstage::sort(v, [](const P &a, const P &b) { return a.x < b.x; });
//
// sort(view) and sort_by_key are an LSD radix sort (detail/radix_sort.hpp):
// integers in their order, floats in the order of their bits made
// comparable (detail/radix_keys.hpp): -0.0 before +0.0, NaNs with the sign
// bit set before -inf and the others after +inf. sort_by_key is stable, and
// sort(view) with std::less<> on such keys is the radix sort too. sort(view,
// comp) is a stable merge sort (detail/sort_merge.hpp) for comp a strict
// weak order; for one that is not (< on floats with NaNs) the order is
// unspecified, but the result is still a permutation of the input.
#ifndef MSTAGE_ALGORITHM_SORT_HPP
#define MSTAGE_ALGORITHM_SORT_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/detail/radix_keys.hpp"
#include "mstage/algorithm/detail/radix_sort.hpp"
#include "mstage/algorithm/detail/sort_merge.hpp"

#include <functional>
#include <type_traits>

namespace mstage {
namespace detail {

template <class _Kp, class Comp>
inline constexpr bool sort_is_less =
    radix_sortable<_Kp> &&
    (std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<_Kp>>);

template <class _Rp, class = void>
inline constexpr bool radix_sortable_view = false;
template <class _Rp>
inline constexpr bool
    radix_sortable_view<_Rp, std::enable_if_t<writable_view_v<_Rp>>> =
        radix_sortable<element_of<_Rp>>;

} // namespace detail

// The checks of a radix sort's keys, naming the call.
#define MSTAGE_SORT_CHECK_KEYS(call, _Rp, what)                                \
  MSTAGE_ALGORITHM_CHECK_WRITABLE(call, _Rp, what);                            \
  static_assert(                                                               \
      !::mstage::detail::writable_view_v<_Rp> ||                               \
          ::mstage::detail::radix_sortable_view<_Rp>,                          \
      "mstage: " call ": the radix sort sorts integer and "                    \
      "floating-point keys; for other types call mstage::sort(view, "          \
      "comp) with a comparator")

// sort(view): radix sort of integer or floating-point keys; sort(view,
// comp): stable merge sort by comp, a strict weak order. sort_fn<Block,
// Items, Rank> and sort_by_key_fn<Block, Items, Rank> run the radix sort's
// passes with Block threads of Items keys (0: the defaults; at least one
// thread per digit, so Block is 0 or a multiple of 32 from 256 to 1024)
// and rank them by Rank, for tuning (bench/mstage_scan_sort's sweep).
template <unsigned Block = 0, unsigned Items = 0,
          detail::radix_ranking Rank = detail::radix_ranking::early_counts>
struct sort_fn : detail::algorithm_base<sort_fn<Block, Items, Rank>> {
  static_assert(Block == 0 ||
                    (Block % 32 == 0 && Block >= 256 && Block <= 1024),
                "mstage: sort: a radix pass has whole warps and a thread "
                "per digit: 256 to 1024 threads");
  using detail::algorithm_base<sort_fn>::stream;
  template <class _Rp> void operator()(_Rp &&r) const {
    MSTAGE_SORT_CHECK_KEYS("sort", _Rp, "the view");
    if constexpr (detail::radix_sortable_view<_Rp>) {
      stream_ref s = stream();
      detail::radix_sort_run<detail::element_of<_Rp>, char, false, Block, Items,
                             Rank>("sort", detail::as_view(r, s),
                                   vector_view<char>(), s);
    }
  }
  template <class _Rp, class Comp> void operator()(_Rp &&r, Comp comp) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("sort", _Rp, "the view");
    MSTAGE_ALGORITHM_CHECK_OP("sort", Comp);
    if constexpr (detail::writable_view_v<_Rp>) {
      using _Tp = detail::element_of<_Rp>;
      constexpr bool callable =
          std::is_invocable_r_v<bool, const Comp &, const _Tp &, const _Tp &>;
      static_assert(callable, "mstage: sort: the comparator is not callable "
                              "with two values of the element type, or does "
                              "not return bool");
      if constexpr (detail::sort_is_less<_Tp, Comp>)
        (*this)(r);
      else if constexpr (callable && std::is_trivially_copyable_v<Comp>)
        detail::sort_merge_run<_Tp>(detail::as_view(r, stream()), comp,
                                    stream());
    }
  }
};
inline constexpr sort_fn<> sort{};

// sort_by_key(keys, values): sorts keys (integer or floating point) and
// permutes values with them; keys that compare equal keep their values'
// order.
template <unsigned Block = 0, unsigned Items = 0,
          detail::radix_ranking Rank = detail::radix_ranking::early_counts>
struct sort_by_key_fn
    : detail::algorithm_base<sort_by_key_fn<Block, Items, Rank>> {
  static_assert(Block == 0 ||
                    (Block % 32 == 0 && Block >= 256 && Block <= 1024),
                "mstage: sort_by_key: a radix pass has whole warps and a "
                "thread per digit: 256 to 1024 threads");
  using detail::algorithm_base<sort_by_key_fn>::stream;
  template <class _KR, class _VR>
  void operator()(_KR &&keys, _VR &&values) const {
    MSTAGE_SORT_CHECK_KEYS("sort_by_key", _KR, "the key view");
    MSTAGE_ALGORITHM_CHECK_WRITABLE("sort_by_key", _VR, "the value view");
    if constexpr (detail::radix_sortable_view<_KR> &&
                  detail::writable_view_v<_VR>) {
      stream_ref s = stream();
      auto k = detail::as_view(keys, s);
      auto v = detail::as_view(values, s);
      detail::check_same_size("sort_by_key", "the keys and the values differ",
                              k.size(), v.size());
      detail::radix_sort_run<detail::element_of<_KR>, detail::element_of<_VR>,
                             true, Block, Items, Rank>("sort_by_key", k, v, s);
    }
  }
};
inline constexpr sort_by_key_fn<> sort_by_key{};

} // namespace mstage

#endif
