// parallel_for over 1- to 4-dimensional index ranges, as YAKL's:
//
//   mstage::parallel_for(n, [=](int i) { ... });                // 0 <= i < n
//   mstage::parallel_for(mstage::bounds<3>{nz, ny, nx},
//                        [=](int k, int j, int i) { ... });
//   mstage::parallel_for(mstage::bounds<2>{{1, ny}, {1, nx}},    // inclusive
//                        [=](int j, int i) { ... });
//
//   mstage::parallel_for("label", n, [=](int i) { ... });        // named
//   mstage::parallel_for(mstage::bounds<1>{{0, n - 1, 2}},       // i += 2
//                        [=](int i) { ... });
//   mstage::parallel_for("sum", n, f, mstage::b4b);              // see below
//
// A single extent n means 0 <= i < n; a pair {lo, hi} means lo <= i <= hi
// (hi = lo - 1 is an empty range); a triple {lo, hi, stride} means lo,
// lo + stride, ... up to hi (stride >= 1). The label, as YAKL's, names the
// launch where it is timed (MSTAGE_TIMERS=kernels, mstage/timer.hpp) and in
// profilers (an NVTX range around the launch); the kernel's symbol stays
// mstage::parallel_for. mstage::b4b marks a kernel whose result depends on
// the order of its floating-point atomics: with MSTAGE_B4B=1 it runs in
// index order on one GPU thread, so that its result is the same bits at
// every run (and the same as the CPU back end's); otherwise the option
// changes nothing. It is slow: docs/api.md gives the cost. f gets int indices,
// the first the slowest (C order); with mstage::first_fastest the first index
// is the fastest (Fortran order), which makes neighbouring threads touch
// neighbouring elements of a Fortran-order array. One thread per index; the
// launch configuration comes from the device; the extents, the lower limits and
// the order are staged, so the index arithmetic divides by constants.
#ifndef MSTAGE_ALGORITHM_PARALLEL_FOR_HPP
#define MSTAGE_ALGORITHM_PARALLEL_FOR_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/kernel.hpp"
#include "mstage/nvtx.hpp"
#include "mstage/stage.hpp"
#include "mstage/timer.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace mstage {

// One dimension of bounds: an extent n ([0, n)), an inclusive pair {lo, hi}
// or a triple {lo, hi, stride}.
struct bound {
  long long lo = 0, hi = -1, stride = 1;

  bound() = default;
  template <class _Ip, class = std::enable_if_t<std::is_integral_v<_Ip>>>
  bound(_Ip n) : lo(0), hi((long long)n - 1) {}
  template <class _Ip, class _Jp,
            class = std::enable_if_t<std::is_integral_v<_Ip> &&
                                     std::is_integral_v<_Jp>>>
  bound(_Ip lo, _Jp hi) : lo((long long)lo), hi((long long)hi) {}
  template <class _Ip, class _Jp, class _Kp,
            class = std::enable_if_t<std::is_integral_v<_Ip> &&
                                     std::is_integral_v<_Jp> &&
                                     std::is_integral_v<_Kp>>>
  bound(_Ip lo, _Jp hi, _Kp stride)
      : lo((long long)lo), hi((long long)hi), stride((long long)stride) {}
};

// Rank dimensions of bounds; the first is the slowest unless the launch
// says first_fastest.
template <int Rank> struct bounds {
  static_assert(Rank >= 1 && Rank <= 4,
                "mstage: bounds<Rank>: Rank must be 1 to 4");
  bound dim[Rank];

  template <class... _Bp, class = std::enable_if_t<sizeof...(_Bp) == Rank>>
  bounds(_Bp... b) : dim{bound(b)...} {}
  bounds(std::initializer_list<bound> b) {
    if (b.size() != Rank)
      throw error("mstage: bounds<" + std::to_string(Rank) +
                  ">: " + std::to_string(b.size()) + " dimensions given");
    int d = 0;
    for (const bound &x : b)
      dim[d++] = x;
  }

  long long lower(int d) const { return dim[d].lo; }
  long long upper(int d) const { return dim[d].hi; }
  long long stride(int d) const { return dim[d].stride; }
  // The number of indices of dimension d.
  long long extent(int d) const {
    return dim[d].hi < dim[d].lo ? 0
                                 : (dim[d].hi - dim[d].lo) / dim[d].stride + 1;
  }
};
bounds(bound)->bounds<1>;
bounds(bound, bound)->bounds<2>;
bounds(bound, bound, bound)->bounds<3>;
bounds(bound, bound, bound, bound)->bounds<4>;

// Which index of f moves fastest from one thread to the next.
enum class index_order { last_fastest, first_fastest };
inline constexpr index_order last_fastest = index_order::last_fastest;
inline constexpr index_order first_fastest = index_order::first_fastest;

// The option of a kernel that must give the same bits at every run under
// MSTAGE_B4B=1 (YAKL's bit-for-bit flag).
struct b4b_t {};
inline constexpr b4b_t b4b{};

namespace detail {

inline constexpr unsigned for_block = 256;

// The staged shape: lower limits, strides and extents, as ints.
template <int Rank> struct shape {
  int lo[Rank];
  int step[Rank];
  int extent[Rank];
};

// Whether a grid of `grid` blocks walks total indices with 32-bit
// arithmetic: the last index plus the grid's stride must fit, or the index
// would wrap past 2^32 back below the count and the loop never end.
inline bool for_fits_32_bits(std::size_t total, unsigned grid, unsigned block) {
  return total - 1 + std::size_t(grid) * block <= 0xffffffffu;
}

template <int Rank, class _Fp>
auto for_kernel(_Fp f, shape<Rank> sh, std::size_t total, bool first_fast,
                bool narrowArg, unsigned blockArg) {
  return [=]() {
    const shape<Rank> s = stage(sh);
    const std::size_t n = stage(total);
    const bool ff = stage(first_fast);
    const bool narrow = stage(narrowArg);
    const unsigned block = stage(blockArg);
    auto run = [&](auto zero) {
      using _Ip = decltype(zero);
      const _Ip stride = _Ip(__mstage_nctaid_x()) * _Ip(block);
      for (_Ip g = _Ip(__mstage_ctaid_x()) * _Ip(block) + _Ip(__mstage_tid_x());
           g < _Ip(n); g += stride) {
        int idx[Rank];
        _Ip rest = g;
        // The fastest dimension is the remainder of the first division.
        for (int r = 0; r < Rank; ++r) {
          int d = ff ? r : Rank - 1 - r;
          _Ip e = _Ip(s.extent[d]);
          idx[d] = s.lo[d] + s.step[d] * int(rest % e);
          rest /= e;
        }
        if constexpr (Rank == 1)
          f(idx[0]);
        else if constexpr (Rank == 2)
          f(idx[0], idx[1]);
        else if constexpr (Rank == 3)
          f(idx[0], idx[1], idx[2]);
        else
          f(idx[0], idx[1], idx[2], idx[3]);
        if (stride >= _Ip(n)) // one index per thread: no second round
          break;
      }
    };
    if (narrow)
      run(0u);
    else
      run(std::size_t(0));
  };
}

template <int Rank, class _Fp> constexpr bool callable_with_ints() {
  if constexpr (Rank == 1)
    return std::is_invocable_v<const _Fp &, int>;
  else if constexpr (Rank == 2)
    return std::is_invocable_v<const _Fp &, int, int>;
  else if constexpr (Rank == 3)
    return std::is_invocable_v<const _Fp &, int, int, int>;
  else
    return std::is_invocable_v<const _Fp &, int, int, int, int>;
}

// The options after the body: an index_order and mstage::b4b, in any order.
struct for_options {
  index_order order = last_fastest;
  bool b4b = false;
  void set(index_order o) { order = o; }
  void set(b4b_t) { b4b = true; }
};
template <class _Op>
inline constexpr bool is_for_option =
    std::is_same_v<_Op, index_order> || std::is_same_v<_Op, b4b_t>;

} // namespace detail

inline constexpr struct parallel_for_fn
    : detail::algorithm_base<parallel_for_fn> {
  // parallel_for([label,] n, f[, options]): f(i) for 0 <= i < n.
  template <class _Ip, class _Fp, class... _Op,
            class = std::enable_if_t<std::is_integral_v<_Ip>>>
  void operator()(_Ip n, _Fp f, _Op... opt) const {
    (*this)(nullptr, bounds<1>(bound(n)), f, opt...);
  }
  template <class _Ip, class _Fp, class... _Op,
            class = std::enable_if_t<std::is_integral_v<_Ip>>>
  void operator()(const char *label, _Ip n, _Fp f, _Op... opt) const {
    (*this)(label, bounds<1>(bound(n)), f, opt...);
  }
  // parallel_for([label,] bounds, f[, options]).
  template <int Rank, class _Fp, class... _Op>
  void operator()(const bounds<Rank> &b, _Fp f, _Op... opt) const {
    (*this)(nullptr, b, f, opt...);
  }

  template <int Rank, class _Fp, class... _Op>
  void operator()(const char *label, const bounds<Rank> &b, _Fp f,
                  _Op... opt) const {
    MSTAGE_ALGORITHM_CHECK_OP("parallel_for", _Fp);
    static_assert(detail::callable_with_ints<Rank, _Fp>(),
                  "mstage: parallel_for: the body is not callable with one "
                  "int index per dimension of the bounds");
    static_assert((detail::is_for_option<_Op> && ...),
                  "mstage: parallel_for: the options after the body are "
                  "mstage::first_fastest, mstage::last_fastest and "
                  "mstage::b4b");
    detail::for_options o;
    (o.set(opt), ...);
    detail::shape<Rank> sh;
    std::size_t total = 1;
    for (int d = 0; d < Rank; ++d) {
      long long lo = b.lower(d), hi = b.upper(d), step = b.stride(d);
      if (hi < lo - 1)
        throw error("mstage: parallel_for: dimension " + std::to_string(d) +
                    " has an upper limit " + std::to_string(hi) +
                    " below its lower limit " + std::to_string(lo) +
                    " minus 1; an empty range is {lo, lo - 1}");
      if (step < 1)
        throw error("mstage: parallel_for: dimension " + std::to_string(d) +
                    " has the stride " + std::to_string(step) +
                    "; strides are 1 or more");
      long long e = b.extent(d);
      if (lo < std::numeric_limits<int>::min() ||
          hi > std::numeric_limits<int>::max() ||
          e > std::numeric_limits<int>::max() ||
          step > std::numeric_limits<int>::max())
        throw error("mstage: parallel_for: dimension " + std::to_string(d) +
                    " [" + std::to_string(lo) + ", " + std::to_string(hi) +
                    "] does not fit int indices");
      sh.lo[d] = int(lo);
      sh.step[d] = int(step);
      sh.extent[d] = int(e);
      total *= std::size_t(e);
    }
    if (total == 0)
      return;
    // Under MSTAGE_B4B=1 a b4b kernel is one thread, which walks the
    // indices in order.
    int serial = 0;
    if (o.b4b)
      detail::check(mstage_rt_b4b(&serial));
    const unsigned block = serial ? 1 : detail::for_block;
    unsigned grid = 1;
    if (!serial) {
      grid = detail::grid_one_per_thread(total, block);
      if (grid == 0)
        grid = detail::grid_for((total + block - 1) / block, block);
    }
    const char *name = label ? label : "unlabeled parallel_for";
    std::optional<nvtx_range> range;
    if (label)
      range.emplace(label);
    kernel_timer timed(name);
    kernel("mstage::parallel_for",
           detail::for_kernel<Rank>(
               f, sh, total, o.order == index_order::first_fastest,
               detail::for_fits_32_bits(total, grid, block), block),
           grid, block)
        .check_on_cpu(false)
        .on(stream())();
    timed.stop();
  }
} parallel_for{};

} // namespace mstage

#endif
