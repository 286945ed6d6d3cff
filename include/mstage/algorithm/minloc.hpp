//===- minloc.hpp - minloc and maxloc, as Fortran's and YAKL's ------------===//
//
//   std::size_t i = mstage::minloc(v);   // v[i] is the least element
//   std::size_t j = mstage::maxloc(a);   // an mstage::array: in memory order
//
// The index of the first least (greatest) element, in memory order, NaNs
// ignored as mstage::min and mstage::max ignore them; when every element is
// NaN, the first one (0). An empty view is an error that names the call.
// Two passes, each waited for: min or max (reduce.hpp), then one kernel
// finds the first element equal to it (its threads' first hits meet in an
// atomic minimum of the index).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_ALGORITHM_MINLOC_HPP
#define MSTAGE_ALGORITHM_MINLOC_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/algorithm/reduce.hpp"
#include "mstage/atomic.hpp"
#include "mstage/kernel.hpp"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace mstage {
namespace detail {

inline constexpr unsigned locate_block = 256;

// out[0] becomes the least index i with in[i] == target (with is_nan when
// target is NaN); it starts at in.size().
template <class _Tp> auto first_equal_kernel(_Tp target) {
  return [=](vector_view<const _Tp> in, vector_view<unsigned long long> out) {
    const std::size_t n = in.size();
    const bool nan = is_nan(target);
    const std::size_t stride = std::size_t(__mstage_nctaid_x()) * locate_block;
    for (std::size_t i =
             std::size_t(__mstage_ctaid_x()) * locate_block + __mstage_tid_x();
         i < n; i += stride) {
      const _Tp x = in[i];
      if (nan ? is_nan(x) : x == target) {
        // A thread's first hit is its least.
        atomic_ref<unsigned long long>(out[0]).fetch_min(
            (unsigned long long)i, std::memory_order_relaxed);
        break;
      }
    }
  };
}

template <class _Op> struct locate_fn : algorithm_base<locate_fn<_Op>> {
  using algorithm_base<locate_fn>::stream;
  const char *call;

  template <class _Vp> std::size_t operator()(_Vp &&view) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("minloc/maxloc", _Vp);
    using _Tp = element_of<_Vp>;
    static_assert(std::is_invocable_v<std::less<>, const _Tp &, const _Tp &>,
                  "mstage: minloc/maxloc: the element type has no <");
    stream_ref s = stream();
    auto in = as_view(view, s);
    vector_view<const _Tp> cin(in.data(), in.size());
    if (cin.empty())
      empty_input(call);
    const _Tp target =
        reduce_to_host(cin, _Tp{}, false, _Op(), identity_fn(), s);
    temporary result(sizeof(unsigned long long), s);
    unsigned long long first = cin.size();
    check(
        mstage_rt_fill_async(result.get(), &first, sizeof(first), 1, s.get()));
    unsigned grid =
        grid_for((cin.size() + locate_block - 1) / locate_block, locate_block);
    kernel("mstage::minloc", first_equal_kernel<_Tp>(target), grid,
           locate_block)
        .check_on_cpu(false)
        .on(s)(cin, vector_view<unsigned long long>(
                        static_cast<unsigned long long *>(result.get()), 1));
    check(mstage_rt_copy_to_host_async(&first, result.get(), sizeof(first),
                                       s.get()));
    s.synchronize();
    assert(first < cin.size() && "the extreme is an element");
    return std::size_t(first);
  }
};

} // namespace detail

inline constexpr detail::locate_fn<detail::min_op> minloc{{}, "minloc"};
inline constexpr detail::locate_fn<detail::max_op> maxloc{{}, "maxloc"};

} // namespace mstage

#endif
