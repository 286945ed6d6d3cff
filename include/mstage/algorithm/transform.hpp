// Element-wise algorithms: transform (one or two inputs), fill, copy, iota.
//
//   mstage::transform(x, y, [=](float v) { return 2 * v; });
//   mstage::transform(x, y, z, [](float a, float b) { return a + b; });
//   mstage::fill(v, 0.0f);
//   mstage::iota(v, 1);            // 1, 2, 3, ...
//
// None waits: each is enqueued on the stream. transform and iota are one
// kernel, one element per thread, with the count staged; fill and copy are
// the runtime's stream-ordered fill and copy.
#ifndef MSTAGE_ALGORITHM_TRANSFORM_HPP
#define MSTAGE_ALGORITHM_TRANSFORM_HPP

#include "mstage/algorithm/detail/launch.hpp"
#include "mstage/kernel.hpp"
#include "mstage/stage.hpp"

#include <cstddef>
#include <type_traits>

namespace mstage {
namespace detail {

inline constexpr unsigned elementwise_block = 256;

// out[i] = f(i) for every i of out, one per thread (a grid-stride loop when
// the grid would pass CUDA's limit).
template <class F> auto elementwise_kernel(F f) {
  return [=](auto out, auto... in) {
    const std::size_t n = stage(out.size());
    auto run = [&](auto zero) {
      using I = decltype(zero);
      const I stride = I(__mstage_nctaid_x()) * I(elementwise_block);
      for (I i = I(__mstage_ctaid_x()) * I(elementwise_block) +
                 I(__mstage_tid_x());
           i < I(n); i += stride) {
        out.data()[i] = f(i, in.data()[i]...);
        if (stride >= I(n))
          break;
      }
    };
    if (n <= 0xffffffffu)
      run(0u);
    else
      run(std::size_t(0));
  };
}

template <class F, class Out, class... In>
void launch_elementwise(F f, Out out, stream_ref s, In... in) {
  if (out.empty())
    return;
  constexpr unsigned B = elementwise_block;
  unsigned grid = grid_one_per_thread(out.size(), B);
  if (grid == 0)
    grid = grid_for((out.size() + B - 1) / B, B);
  kernel(elementwise_kernel(f), grid, B).check_on_cpu(false).on(s)(out, in...);
}

// f(x) or f(x, y), without the index.
template <class F> struct apply_value {
  F f;
  template <class I, class... X> auto operator()(I, const X &...x) const {
    return f(x...);
  }
};
template <class T> struct iota_value {
  T start;
  template <class I> T operator()(I i) const { return T(start + T(i)); }
};

template <class T> vector_view<const T> const_view(vector_view<T> v) {
  return {v.data(), v.size()};
}

} // namespace detail

// transform(in, out, f): out[i] = f(in[i]); transform(in1, in2, out, f):
// out[i] = f(in1[i], in2[i]). The sizes must match; in and out may be the
// same view.
inline constexpr struct transform_fn : detail::algorithm_base<transform_fn> {
  template <class In, class Out, class F>
  void operator()(In &&in, Out &&out, F f) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", In);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("transform", Out, "the output");
    MSTAGE_ALGORITHM_CHECK_OP("transform", F);
    using T = detail::element_of<In>;
    using U = detail::element_of<Out>;
    static_assert(std::is_invocable_v<const F &, const T &>,
                  "mstage: transform: the function is not callable with the "
                  "input's element type");
    if constexpr (std::is_invocable_v<const F &, const T &>)
      static_assert(
          std::is_assignable_v<U &, std::invoke_result_t<const F &, const T &>>,
          "mstage: transform: the function's result cannot be "
          "assigned to the output's elements");
    stream_ref s = stream();
    auto i = detail::as_view(in, s);
    auto o = detail::as_view(out, s);
    detail::check_same_size("transform", "the input and the output differ",
                            i.size(), o.size());
    detail::launch_elementwise(detail::apply_value<F>{f}, o, s,
                               detail::const_view(i));
  }

  template <class In1, class In2, class Out, class F>
  void operator()(In1 &&in1, In2 &&in2, Out &&out, F f) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", In1);
    MSTAGE_ALGORITHM_CHECK_VIEW("transform", In2);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("transform", Out, "the output");
    MSTAGE_ALGORITHM_CHECK_OP("transform", F);
    using T1 = detail::element_of<In1>;
    using T2 = detail::element_of<In2>;
    using U = detail::element_of<Out>;
    static_assert(std::is_invocable_v<const F &, const T1 &, const T2 &>,
                  "mstage: transform: the function is not callable with the "
                  "two inputs' element types");
    if constexpr (std::is_invocable_v<const F &, const T1 &, const T2 &>)
      static_assert(
          std::is_assignable_v<
              U &, std::invoke_result_t<const F &, const T1 &, const T2 &>>,
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
    detail::launch_elementwise(detail::apply_value<F>{f}, o, s,
                               detail::const_view(a), detail::const_view(b));
  }
} transform{};

// fill(view, value): every element set to value.
inline constexpr struct fill_fn : detail::algorithm_base<fill_fn> {
  template <class V, class T> void operator()(V &&view, const T &value) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("fill", V, "the view");
    using E = detail::element_of<V>;
    static_assert(std::is_convertible_v<const T &, E>,
                  "mstage: fill: the value does not convert to the view's "
                  "element type");
    stream_ref s = stream();
    auto v = detail::as_view(view, s);
    if (v.empty())
      return;
    E e = E(value);
    detail::check(
        mstage_rt_fill_async(v.data(), &e, sizeof(E), v.size(), s.get()));
  }
} fill{};

// copy(in, out): out[i] = in[i]; the element types and sizes must match.
inline constexpr struct copy_fn : detail::algorithm_base<copy_fn> {
  template <class In, class Out> void operator()(In &&in, Out &&out) const {
    MSTAGE_ALGORITHM_CHECK_VIEW("copy", In);
    MSTAGE_ALGORITHM_CHECK_WRITABLE("copy", Out, "the output");
    static_assert(
        std::is_same_v<detail::element_of<In>, detail::element_of<Out>>,
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
inline constexpr struct iota_fn : detail::algorithm_base<iota_fn> {
  template <class V, class T> void operator()(V &&view, T start) const {
    MSTAGE_ALGORITHM_CHECK_WRITABLE("iota", V, "the view");
    using E = detail::element_of<V>;
    static_assert(std::is_convertible_v<T, E>,
                  "mstage: iota: the start does not convert to the view's "
                  "element type");
    stream_ref s = stream();
    auto v = detail::as_view(view, s);
    detail::launch_elementwise(detail::iota_value<E>{E(start)}, v, s);
  }
} iota{};

} // namespace mstage

#endif
