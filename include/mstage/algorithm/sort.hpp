// Sorts of device ranges (device_vector or vector_view), in place, enqueued
// on a stream (the current one unless given last):
//
//   mstage::sort(keys);                          // integer or floating-point keys: radix sort
//   mstage::sort_by_key(keys, values);           // values follow their keys, stably
//   mstage::sort(v, [](const P &a, const P &b) { return a.x < b.x; });  // any comparator
//
// sort(view) and sort_by_key are an LSD radix sort (detail/radix_sort.hpp):
// integers in their order, floats in the order of their bits made
// comparable (detail/radix_keys.hpp): -0.0 before +0.0, NaNs with the sign
// bit set before -inf and the others after +inf. sort_by_key is stable, and
// sort(view) with std::less<> on such keys is the radix sort too. sort(view,
// comp) is a stable merge sort (detail/sort_merge.hpp); comp must be a
// strict weak order.
#ifndef MSTAGE_ALGORITHM_SORT_HPP
#define MSTAGE_ALGORITHM_SORT_HPP

#include "mstage/algorithm/detail/radix_keys.hpp"
#include "mstage/algorithm/detail/radix_sort.hpp"
#include "mstage/algorithm/detail/scan_common.hpp"
#include "mstage/algorithm/detail/sort_merge.hpp"
#include "mstage/stream.hpp"

#include <functional>
#include <type_traits>

namespace mstage {
namespace detail {

// Checks a sort's range; true when it passes, so that a failed call gives
// its one error.
template <class R> constexpr bool sort_check_range() {
  constexpr bool range = scan_is_range<R>;
  static_assert(range, "mstage::sort/sort_by_key: the range must be a "
                       "device_vector or a vector_view (device memory); copy "
                       "a std::vector into a device_vector");
  if constexpr (range) {
    constexpr bool writable = !std::is_const_v<scan_element_t<R>>;
    static_assert(writable, "mstage::sort/sort_by_key: the range must be "
                            "writable (not const)");
    return writable;
  }
  return false;
}

template <class K> constexpr bool sort_check_key() {
  constexpr bool ok = radix_sortable<K>;
  static_assert(ok, "mstage::sort/sort_by_key: the radix sort sorts integer "
                    "and floating-point keys; for other types call "
                    "mstage::sort(range, comp) with a comparator");
  return ok;
}

template <class K, class Comp>
inline constexpr bool sort_is_less =
    radix_sortable<K> &&
    (std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<K>>);

template <class V> constexpr bool sort_is_stream() {
  return std::is_convertible_v<std::decay_t<V>, stream_ref> &&
         !scan_is_range<V>;
}

} // namespace detail

inline constexpr struct sort_fn {
  // Radix sort of integer or floating-point keys.
  template <class R, std::enable_if_t<!detail::sort_is_stream<R>() &&
                                          !std::is_invocable_v<R>,
                                      int> = 0>
  void operator()(R &&r, stream_ref s = current_stream()) const {
    if constexpr (detail::sort_check_range<R>()) {
      using K = detail::scan_value_t<R>;
      if constexpr (detail::sort_check_key<K>())
        detail::radix_sort_run<K, char, false>(
            "sort", detail::scan_view(r, s), vector_view<char>(), s);
    }
  }
  // Stable merge sort by comp, a strict weak order.
  template <class R, class Comp,
            std::enable_if_t<!detail::sort_is_stream<Comp>(), int> = 0>
  void operator()(R &&r, Comp comp, stream_ref s = current_stream()) const {
    if constexpr (detail::sort_check_range<R>()) {
      using T = detail::scan_value_t<R>;
      constexpr bool callable =
          std::is_invocable_r_v<bool, const Comp &, const T &, const T &>;
      static_assert(callable, "mstage::sort: the comparator must be callable "
                              "with two values of the element type and "
                              "return bool");
      static_assert(std::is_trivially_copyable_v<Comp>,
                    "mstage::sort: the comparator must be trivially copyable "
                    "(a lambda capturing by value)");
      if constexpr (detail::sort_is_less<T, Comp>)
        (*this)(r, s);
      else if constexpr (callable && std::is_trivially_copyable_v<Comp>)
        detail::sort_merge_run<T>(detail::scan_view(r, s), comp, s);
    }
  }
} sort{};

// Sorts keys (integer or floating point) and permutes values with them;
// keys that compare equal keep their values' order.
inline constexpr struct sort_by_key_fn {
  template <class KR, class VR>
  void operator()(KR &&keys, VR &&values,
                  stream_ref s = current_stream()) const {
    if constexpr (detail::sort_check_range<KR>() &&
                  detail::sort_check_range<VR>()) {
      using K = detail::scan_value_t<KR>;
      using V = detail::scan_value_t<VR>;
      if constexpr (detail::sort_check_key<K>()) {
        detail::scan_check_sizes("sort_by_key", keys.size(), values.size(),
                                 "key range", "value range");
        detail::radix_sort_run<K, V, true>("sort_by_key",
                                           detail::scan_view(keys, s),
                                           detail::scan_view(values, s), s);
      }
    }
  }
} sort_by_key{};

} // namespace mstage

#endif
