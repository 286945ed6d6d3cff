// Element-wise algorithms: transform (one or two inputs), fill, copy, iota.
//
//   mstage::transform(x, y, [=](float v) { return 2 * v; });
//   mstage::transform(x, y, z, [](float a, float b) { return a + b; });
//   mstage::fill(v, 0.0f);
//   mstage::iota(v, 1);            // 1, 2, 3, ...
//
// None waits: each is enqueued on the stream. transform and iota are one
// kernel of tiles (several elements a thread, loaded before use, in 16-byte
// chunks when the views are aligned), with the count and the alignment
// staged; fill and copy are the runtime's stream-ordered fill and copy.
#ifndef MSTAGE_ALGORITHM_TRANSFORM_HPP
#define MSTAGE_ALGORITHM_TRANSFORM_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/kernel.hpp"
#include "mstage/stage.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace mstage {
namespace detail {

// The tile shape: Block threads, each with Items elements, loaded before
// any is used so that a thread has several loads in flight. With 16 % size
// == 0 for every element type, a thread's elements are in chunks of Vec
// consecutive ones, one vector load (16 bytes of the widest type) each.
inline constexpr unsigned elementwise_block = 256;

template <class... _Tp> constexpr unsigned elementwise_vec() {
  constexpr std::size_t widest = std::max({sizeof(_Tp)...});
  constexpr bool divides = ((16 % sizeof(_Tp) == 0) && ...);
  return divides && widest < 16 ? unsigned(16 / widest) : 1u;
}
// Four chunks a thread: 64 bytes of the widest type in flight per view.
template <class... _Tp> constexpr unsigned elementwise_items() {
  return 4 * elementwise_vec<_Tp...>();
}

// Vec T's, read and written as one chunk.
template <class _Tp, unsigned Vec> struct alignas(Vec * sizeof(_Tp)) chunk {
  unsigned char bytes[Vec * sizeof(_Tp)];
  const _Tp &operator[](unsigned e) const {
    return reinterpret_cast<const _Tp *>(bytes)[e];
  }
  _Tp *elements() { return reinterpret_cast<_Tp *>(bytes); }
};

// A thread's chunks of one input, loaded before use.
template <class _Tp, unsigned Vec, unsigned Chunks> struct loaded {
  chunk<_Tp, Vec> c[Chunks];
};

// out[i] = f(i, in[i]...) for every i of out. A block takes a tile of
// Block * Items elements (the grid strides when it would pass CUDA's limit);
// its threads load all their elements, as 16-byte chunks when every view is
// aligned for them (checked on the host, staged), then compute and store.
// The last, partial tile goes element by element.
template <unsigned Block, unsigned Items, class _Fp>
auto elementwise_kernel(_Fp f, bool alignedArg, bool oneTileArg) {
  return [=](auto out, auto... in) {
    using _Up = typename decltype(out)::element_type;
    constexpr unsigned VecMax = elementwise_vec<
        _Up, std::remove_const_t<typename decltype(in)::element_type>...>();
    constexpr unsigned Tile = Block * Items;
    const std::size_t n = stage(out.size());
    const bool aligned = stage(alignedArg);
    const bool oneTile = stage(oneTileArg);
    auto run = [&](auto zero) {
      using _Ip = decltype(zero);
      const unsigned tid = __mstage_tid_x();
      const _Ip full = _Ip(n / Tile), rest = _Ip(n % Tile);
      // Chunks of Vec elements at base + (k * Block + tid) * Vec: coalesced
      // for Vec 1, one vector access per chunk otherwise.
      auto tile = [&](_Ip base, auto vec) {
        constexpr unsigned Vec = decltype(vec)::value;
        constexpr unsigned Chunks = Items / Vec;
        std::tuple<
            loaded<std::remove_const_t<typename decltype(in)::element_type>,
                   Vec, Chunks>...>
            regs;
        auto at = [&](unsigned k) { return (k * Block + tid) * Vec; };
        std::apply(
            [&](auto &...r) {
              for (unsigned k = 0; k < Chunks; ++k)
                ((std::memcpy(
                     r.c[k].bytes,
                     __builtin_assume_aligned(in.data() + base + at(k),
                                              alignof(decltype(r.c[k]))),
                     sizeof(r.c[k]))),
                 ...);
            },
            regs);
        for (unsigned k = 0; k < Chunks; ++k) {
          chunk<_Up, Vec> o;
          for (unsigned e = 0; e < Vec; ++e)
            o.elements()[e] = std::apply(
                [&](auto &...r) {
                  return f(_Ip(base + at(k) + e), r.c[k][e]...);
                },
                regs);
          std::memcpy(__builtin_assume_aligned(out.data() + base + at(k),
                                               alignof(chunk<_Up, Vec>)),
                      o.bytes, sizeof(o));
        }
      };
      auto whole = [&](_Ip t) {
        if constexpr (VecMax > 1 && Items % VecMax == 0) {
          if (aligned) {
            tile(t * _Ip(Tile), std::integral_constant<unsigned, VecMax>());
            return;
          }
        }
        tile(t * _Ip(Tile), std::integral_constant<unsigned, 1>());
      };
      auto partial = [&] {
        const _Ip base = full * _Ip(Tile);
        for (unsigned k = 0; k < Items; ++k) {
          unsigned j = k * Block + tid;
          if (_Ip(j) < rest)
            out.data()[base + j] = f(_Ip(base + j), in.data()[base + j]...);
        }
      };
      const _Ip block = _Ip(__mstage_ctaid_x());
      if (oneTile) {
        if (block < full)
          whole(block);
        else
          partial();
        return;
      }
      const _Ip grid = _Ip(__mstage_nctaid_x());
      for (_Ip t = block; t < full; t += grid)
        whole(t);
      if (rest != 0 && full % grid == block)
        partial();
    };
    if (n <= 0xffffffffu - Tile)
      run(0u);
    else
      run(std::size_t(0));
  };
}

// Whether p is aligned for chunks of Vec T's.
template <unsigned Vec, class _Tp> bool chunk_aligned(const _Tp *p) {
  return reinterpret_cast<std::uintptr_t>(p) % (Vec * sizeof(_Tp)) == 0;
}

template <unsigned Block = 0, unsigned Items = 0, class _Fp, class _Out,
          class... _In>
void launch_elementwise(_Fp f, _Out out, stream_ref s, _In... in) {
  if (out.empty())
    return;
  using _Up = typename _Out::element_type;
  constexpr unsigned _Bp = Block ? Block : elementwise_block;
  constexpr unsigned _It =
      Items ? Items
            : elementwise_items<
                  _Up, std::remove_const_t<typename _In::element_type>...>();
  constexpr unsigned Vec =
      elementwise_vec<_Up,
                      std::remove_const_t<typename _In::element_type>...>();
  static_assert(_Bp >= 32 && _Bp <= 1024 && _It >= 1,
                "mstage: an element-wise tile has 32 to 1024 threads");
  const bool aligned =
      chunk_aligned<Vec>(out.data()) && (chunk_aligned<Vec>(in.data()) && ...);
  const std::size_t tiles = (out.size() + _Bp * _It - 1) / (_Bp * _It);
  const bool oneTile = tiles <= 0x7fffffffu;
  const unsigned grid = oneTile ? unsigned(tiles) : grid_for(tiles, _Bp);
  kernel("mstage::elementwise",
         elementwise_kernel<_Bp, _It>(f, aligned, oneTile), grid, _Bp)
      .check_on_cpu(false)
      .on(s)(out, in...);
}

// f(x) or f(x, y), without the index.
template <class _Fp> struct apply_value {
  _Fp f;
  template <class _Ip, class... _Xp>
  auto operator()(_Ip, const _Xp &...x) const {
    return f(x...);
  }
};
template <class _Tp> struct iota_value {
  _Tp start;
  template <class _Ip> _Tp operator()(_Ip i) const {
    return _Tp(start + _Tp(i));
  }
};

template <class _Tp> vector_view<const _Tp> const_view(vector_view<_Tp> v) {
  return {v.data(), v.size()};
}

} // namespace detail

// transform(in, out, f): out[i] = f(in[i]); transform(in1, in2, out, f):
// out[i] = f(in1[i], in2[i]). The sizes must match; in and out may be the
// same view. transform_fn<Block, Items> is transform with another tile shape
// (0: the default), for tuning (bench/mstage_algorithms.cpp's sweep).
template <unsigned Block = 0, unsigned Items = 0>
struct transform_fn : detail::algorithm_base<transform_fn<Block, Items>> {
  using detail::algorithm_base<transform_fn>::stream;
  template <class _In, class _Out, class _Fp>
  void operator()(_In &&in, _Out &&out, _Fp f) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", _In);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("transform", _Out, "the output");
    MSTAGE_ALGORITHM_CHECK_OP("transform", _Fp);
    using _Tp = detail::element_of<_In>;
    using _Up = detail::element_of<_Out>;
    static_assert(std::is_invocable_v<const _Fp &, const _Tp &>,
                  "mstage: transform: the function is not callable with the "
                  "input's element type");
    if constexpr (std::is_invocable_v<const _Fp &, const _Tp &>)
      static_assert(
          std::is_assignable_v<_Up &,
                               std::invoke_result_t<const _Fp &, const _Tp &>>,
          "mstage: transform: the function's result cannot be "
          "assigned to the output's elements");
    stream_ref s = stream();
    auto i = detail::as_view(in, s);
    auto o = detail::as_view(out, s);
    detail::check_same_size("transform", "the input and the output differ",
                            i.size(), o.size());
    detail::launch_elementwise<Block, Items>(detail::apply_value<_Fp>{f}, o, s,
                                             detail::const_view(i));
  }

  template <class _In1, class _In2, class _Out, class _Fp>
  void operator()(_In1 &&in1, _In2 &&in2, _Out &&out, _Fp f) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", _In1);
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", _In2);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("transform", _Out, "the output");
    MSTAGE_ALGORITHM_CHECK_OP("transform", _Fp);
    using _T1 = detail::element_of<_In1>;
    using _T2 = detail::element_of<_In2>;
    using _Up = detail::element_of<_Out>;
    static_assert(std::is_invocable_v<const _Fp &, const _T1 &, const _T2 &>,
                  "mstage: transform: the function is not callable with the "
                  "two inputs' element types");
    if constexpr (std::is_invocable_v<const _Fp &, const _T1 &, const _T2 &>)
      static_assert(
          std::is_assignable_v<
              _Up &,
              std::invoke_result_t<const _Fp &, const _T1 &, const _T2 &>>,
          "mstage: transform: the function's result cannot be assigned to "
          "the output's elements");
    stream_ref s = stream();
    auto a = detail::as_view(in1, s);
    auto b = detail::as_view(in2, s);
    auto o = detail::as_view(out, s);
    detail::check_same_size("transform", "the two inputs differ", a.size(),
                            b.size());
    detail::check_same_size("transform", "the inputs and the output differ",
                            a.size(), o.size());
    detail::launch_elementwise<Block, Items>(detail::apply_value<_Fp>{f}, o, s,
                                             detail::const_view(a),
                                             detail::const_view(b));
  }
};
inline constexpr transform_fn<> transform{};

// fill(view, value): every element set to value.
inline constexpr struct fill_fn : detail::algorithm_base<fill_fn> {
  template <class _Vp, class _Tp>
  void operator()(_Vp &&view, const _Tp &value) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("fill", _Vp, "the view");
    using _Ep = detail::element_of<_Vp>;
    static_assert(std::is_convertible_v<const _Tp &, _Ep>,
                  "mstage: fill: the value does not convert to the view's "
                  "element type");
    stream_ref s = stream();
    auto v = detail::as_view(view, s);
    if (v.empty())
      return;
    _Ep e = _Ep(value);
    detail::check(
        mstage_rt_fill_async(v.data(), &e, sizeof(_Ep), v.size(), s.get()));
  }
} fill{};

// copy(in, out): out[i] = in[i]; the element types and sizes must match.
inline constexpr struct copy_fn : detail::algorithm_base<copy_fn> {
  template <class _In, class _Out> void operator()(_In &&in, _Out &&out) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("copy", _In);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("copy", _Out, "the output");
    static_assert(
        std::is_same_v<detail::element_of<_In>, detail::element_of<_Out>>,
        "mstage: copy: the input and the output have different element "
        "types; use transform to convert");
    stream_ref s = stream();
    auto i = detail::as_view(in, s);
    auto o = detail::as_view(out, s);
    detail::check_same_size("copy", "the input and the output differ", i.size(),
                            o.size());
    if (i.empty() || i.data() == o.data())
      return;
    detail::check(mstage_rt_copy_device_async(o.data(), i.data(),
                                              i.size_bytes(), s.get()));
  }
} copy{};

// iota(view, start): view[i] = start + i.
template <unsigned Block = 0, unsigned Items = 0>
struct iota_fn : detail::algorithm_base<iota_fn<Block, Items>> {
  using detail::algorithm_base<iota_fn>::stream;
  template <class _Vp, class _Tp> void operator()(_Vp &&view, _Tp start) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("iota", _Vp, "the view");
    using _Ep = detail::element_of<_Vp>;
    static_assert(std::is_convertible_v<_Tp, _Ep>,
                  "mstage: iota: the start does not convert to the view's "
                  "element type");
    stream_ref s = stream();
    auto v = detail::as_view(view, s);
    detail::launch_elementwise<Block, Items>(
        detail::iota_value<_Ep>{_Ep(start)}, v, s);
  }
};
inline constexpr iota_fn<> iota{};

} // namespace mstage

#endif
